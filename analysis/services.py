"""The analysis of finished matches: asking for it, running it, cancelling it.

A participant asks (:func:`analysis_request`); the Celery task on the ``analysis`` queue
runs :func:`analysis_run`, which replays the record with :mod:`analysis.core` and writes
the result once, in one transaction, with the players' summaries: a table is analysed
entirely or not at all. Progress goes to the table's sockets as it runs.
"""

from __future__ import annotations

import json
import logging
from datetime import datetime, timedelta
from typing import Any

from celery import current_app
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from accounts.types import User
from analysis import core
from analysis import errors as err
from games import realtime
from games.models import Seat, Table

from .models import Analysis, PlayerAnalysis

RUN_TASK = "analysis.run"
"""The Celery task that runs an analysis (``analysis.tasks.analysis_run``)."""

log = logging.getLogger(__name__)


def _finished_table(table_id: int) -> Table:
    from games.selectors import table_get

    table = table_get(table_id=table_id)
    if table.status != Table.Status.FINISHED or not hasattr(table, "result"):
        raise err.NotFinished
    return table


def _people(table: Table) -> dict[int, int]:
    """Seat number → user id of the people at ``table``."""
    return dict(
        Seat.objects.filter(table=table, user__isnull=False).values_list("number", "user_id")
    )


@transaction.atomic
def analysis_request(*, table_id: int, user: User, limits: bool = True) -> Analysis:
    """Ask for the analysis of a finished match (every person's seat). An analysis done,
    queued or running is returned as it is; one failed or cancelled is asked again.
    ``limits=False`` (an organiser asking for a round) skips the person's limits."""
    from games.selectors import table_get

    # Who may ask comes first: a non-player learns nothing of a match still playing.
    people = _people(table_get(table_id=table_id))
    if limits and user.pk not in people.values():
        raise err.NotAPlayer
    table = _finished_table(table_id)
    if not people:
        raise err.NoPerson
    # One request of a person at a time: his row serialises them (one running, the day).
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    existing = Analysis.objects.select_for_update().filter(table=table).first()
    if existing is not None and (existing.active or existing.status == Analysis.Status.DONE):
        return existing
    if limits:
        mine = Analysis.objects.filter(requested_by=user)
        if mine.filter(status__in=[Analysis.Status.QUEUED, Analysis.Status.RUNNING]).exists():
            raise err.AlreadyRunning
        since = timezone.now() - timedelta(days=1)
        if mine.filter(requested_at__gte=since).count() >= settings.ANALYSIS_PER_DAY:
            raise err.DailyLimit
    seats = sorted(people)
    total = len(core.decisions(table.result.record, seats))
    analysis = existing or Analysis(table=table)
    analysis.requested_by = user
    analysis.status = Analysis.Status.QUEUED
    analysis.seats = seats
    analysis.samples = settings.ANALYSIS_SAMPLES
    analysis.seed = table.pk
    analysis.done = 0
    analysis.total = total
    analysis.attempts = 0
    analysis.result = None
    analysis.error = ""
    analysis.requested_at = timezone.now()
    analysis.started_at = analysis.finished_at = None
    analysis.save()
    analysis_id = analysis.pk
    transaction.on_commit(lambda: _enqueue(analysis_id))
    transaction.on_commit(lambda: _broadcast(table_id, analysis_id))
    return analysis


def analysis_request_round(*, tournament_id: int, number: int, user: User) -> list[Analysis]:
    """The organiser (or staff) asks for the analysis of every finished table of a
    tournament's round, outside the players' limits; tables of bots only are skipped."""
    from tournaments.models import Tournament

    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None or not (user.is_staff or tournament.created_by_id == user.pk):
        raise err.NotOrganiser
    tables = Table.objects.filter(
        tournament_assignment__round__tournament_id=tournament_id,
        tournament_assignment__round__number=number,
        status=Table.Status.FINISHED,
    ).order_by("pk")
    asked = []
    for table in tables:
        try:
            asked.append(analysis_request(table_id=table.pk, user=user, limits=False))
        except (err.NoPerson, err.NotFinished):
            continue
    return asked


def _enqueue(analysis_id: int) -> None:
    """Queue the analysis's task, found by its name: the task module imports this one,
    never the reverse (``analysis.apps`` registers the task)."""
    current_app.tasks[RUN_TASK].delay(analysis_id)


@transaction.atomic
def analysis_cancel(*, table_id: int, user: User) -> Analysis:
    """Cancel a queued or running analysis the person asked for (staff: any)."""
    analysis = Analysis.objects.select_for_update().filter(table_id=table_id).first()
    if analysis is None:
        raise err.NotRequested
    if not analysis.active or not (user.is_staff or analysis.requested_by_id == user.pk):
        raise err.NotCancellable
    analysis.status = Analysis.Status.CANCELLED
    analysis.finished_at = timezone.now()
    analysis.save(update_fields=["status", "finished_at"])
    transaction.on_commit(lambda: _broadcast(table_id, analysis.pk))
    return analysis


def analysis_run(*, analysis_id: int) -> bool:
    """Run a queued analysis (the task's body): ``True`` when it is done now, ``False``
    when there was nothing to run (cancelled, done, gone) or it was cancelled meanwhile.
    Any other failure raises, with nothing written but the attempt."""
    with transaction.atomic():
        analysis = Analysis.objects.select_for_update().filter(pk=analysis_id).first()
        if analysis is None or not analysis.active:
            return False
        analysis.status = Analysis.Status.RUNNING
        analysis.attempts += 1
        analysis.started_at = analysis.progressed_at = timezone.now()
        analysis.done = 0
        analysis.save(update_fields=["status", "attempts", "started_at", "progressed_at", "done"])
    # The pages leave "waiting for a free worker" now, not after the first decision
    # (a bid can take seconds); after a worker died, the bar starts again from 0.
    _broadcast(analysis.table_id, analysis_id)
    table = Table.objects.select_related("result").get(pk=analysis.table_id)
    record = table.result.record

    def progress(done: int, total: int) -> None:
        running = Analysis.objects.filter(pk=analysis_id, status=Analysis.Status.RUNNING)
        if not running.update(done=done, total=total, progressed_at=timezone.now()):
            raise err.Stopped
        _broadcast(table.pk, analysis_id)

    try:
        result = core.analyse(
            record, analysis.seats, samples=analysis.samples, seed=analysis.seed, progress=progress
        )
    except err.Stopped:
        return False
    with transaction.atomic():
        analysis = Analysis.objects.select_for_update().get(pk=analysis_id)
        if analysis.status != Analysis.Status.RUNNING:
            return False
        analysis.result = result.to_dict()
        analysis.status = Analysis.Status.DONE
        analysis.finished_at = timezone.now()
        analysis.save(update_fields=["result", "status", "finished_at"])
        people = _people(table)
        PlayerAnalysis.objects.bulk_create(
            _player_row(analysis, people[s.seat], s, table.result.finished_at)
            for s in (result.summary(seat) for seat in analysis.seats)
            if s.seat in people
        )
        transaction.on_commit(lambda: _broadcast(table.pk, analysis_id))
    return True


def _player_row(
    analysis: Analysis, user_id: int, summary: core.Summary, finished_at: datetime
) -> PlayerAnalysis:
    stages = summary.by_stage
    return PlayerAnalysis(
        analysis=analysis, user_id=user_id, seat=summary.seat, decisions=summary.decisions,
        mean_loss=summary.mean_loss, bidding=stages["bidding"], contract=stages["contract"],
        play=stages["play"], finished_at=finished_at,
    )  # fmt: skip


def analysis_fail(*, analysis_id: int, error: str) -> None:
    """The last attempt failed: the analysis is marked failed, with no result."""
    with transaction.atomic():
        updated = Analysis.objects.filter(
            pk=analysis_id, status__in=[Analysis.Status.QUEUED, Analysis.Status.RUNNING]
        ).update(status=Analysis.Status.FAILED, error=error[:2000], finished_at=timezone.now())
    if updated:
        table_id = Analysis.objects.values_list("table_id", flat=True).get(pk=analysis_id)
        _broadcast(table_id, analysis_id)


def progress_message(analysis: Analysis) -> dict[str, Any]:
    """What the table's sockets are told of the analysis (no result: the page asks the
    API for it once it is done)."""
    return {
        "type": "analysis",
        "status": analysis.status,
        "done": analysis.done,
        "total": analysis.total,
    }


def _broadcast(table_id: int, analysis_id: int) -> None:
    analysis = Analysis.objects.filter(pk=analysis_id).first()
    table = Table.objects.filter(pk=table_id).only("players").first()
    if analysis is None or table is None:
        return
    text = json.dumps(progress_message(analysis))
    groups = [realtime.seat_group(table_id, s) for s in [*range(table.players), None]]
    try:
        realtime.send([(g, text) for g in groups], "table.public")
    except Exception:  # progress is a courtesy: the page also polls the API
        log.warning("sending the analysis progress of table %s failed", table_id, exc_info=True)
