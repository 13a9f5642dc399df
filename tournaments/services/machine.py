"""The state machine the Celery tick drives: due tournaments, one step each, seating
rounds, opening live tables, recording results, time limits, the arena, the finish."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from enum import StrEnum

from django.db import transaction
from django.db.models import Max, Q

from games.models import BY_THE_RULES, MatchResult, Table
from tournaments import errors, live, notices, pairing, scoring
from tournaments.models import (
    Assignment,
    AssignmentSeat,
    DuplicateDealing,
    Notification,
    Round,
    Tournament,
)
from tournaments.services import duplicate, organiser, seating, standings
from tournaments.services.common import (
    ARENA_BOT_AFTER,
    CHECK_IN_HORIZON,
    OPEN_BATCH,
    STOP_GRACE,
    S,
    current_time,
    locked_tournament,
    tell_pages,
)

log = logging.getLogger(__name__)


class Step(StrEnum):
    """What one step of a tournament did (:func:`tournament_step`); false only for
    ``NOTHING``."""

    NOTHING = ""
    BUSY = "busy"
    """Another worker holds the tournament."""
    MORE = "more"
    """Live tables opened, and more are still to open: step again at once."""
    OPENED = "opened"
    """The seated round's live tables are all open."""
    OPEN = "open"
    """Tables are due to open (inside a step, before the lock is released)."""
    REGISTRATION = "registration"
    CHECK_IN = "check_in"
    START = "start"
    RESULTS = "results"
    STANDINGS = "standings"
    ROUND_CLOSED = "round_closed"
    SEATED = "seated"
    FINISHED = "finished"


def tournaments_due(now: datetime | None = None) -> list[int]:
    """The tournaments the tick should step now: running ones (results, rounds, the
    clock), and announced ones whose next moment (registration, check-in, start) has
    come. A paused tournament is stepped too: its results are still recorded."""
    now = current_time(now)
    due = (
        Q(status=S.RUNNING)
        | Q(status=S.SCHEDULED, registration_opens_at__lte=now)
        # Registration ends in a start, and perhaps a check-in before it (a check-in
        # window is far shorter than a day).
        | Q(status__in=Tournament.ENTERABLE, starts_at__lte=now + CHECK_IN_HORIZON)
    )
    return list(Tournament.objects.filter(due).values_list("pk", flat=True))


def tournament_step(*, tournament_id: int, now: datetime | None = None) -> Step:
    """Do what is due for one tournament now; returns what it did (:class:`Step`:
    ``NOTHING``, ``BUSY`` when another worker holds it, ``MORE`` when more of the same is
    due at once).

    Live tables are opened after the lock is released, one assignment at a time.
    """
    now = current_time(now)
    with transaction.atomic():
        t = (
            Tournament.objects.select_for_update(skip_locked=True)
            .filter(pk=tournament_id, status__in=Tournament.ACTIVE)
            .first()
        )
        if t is None:
            active = Tournament.objects.filter(pk=tournament_id, status__in=Tournament.ACTIVE)
            return Step.BUSY if active.exists() else Step.NOTHING
        did = _step_locked(t, now)
    if did == Step.OPEN:
        _opened, left = round_open_tables(tournament_id=tournament_id, now=now)
        return Step.MORE if left else Step.OPENED
    return did


def _step_locked(t: Tournament, now: datetime) -> Step:
    if t.status == S.SCHEDULED and now >= t.registration_opens_at and not t.paused:
        organiser.tournament_open_registration(tournament=t, now=now)
        return Step.REGISTRATION
    if (
        t.status == S.REGISTRATION
        and t.check_in_minutes
        and now >= t.check_in_opens_at
        and not t.paused
    ):
        organiser.tournament_open_check_in(tournament=t, now=now)
        return Step.CHECK_IN
    if t.status in Tournament.ENTERABLE and now >= t.starts_at and not t.paused:
        organiser.tournament_start(tournament=t, now=now)
        return Step.START
    if t.status != S.RUNNING:
        return Step.NOTHING
    did = _sweep_tables(t, now)
    if Assignment.objects.filter(
        round__tournament=t, status=Assignment.Status.FINISHED, in_standings=False
    ).exists():
        standings.write_standings(t)
        did = did or Step.STANDINGS
    rnd = t.round_set.order_by("-number").first()
    if rnd is None:
        return did
    if t.format == Tournament.Format.ARENA:
        return _arena_step(t, rnd, now) or did
    if rnd.status == Round.Status.SEATED:
        if t.paused or now < rnd.starts_at:
            return did
        return Step.OPEN
    if rnd.status == Round.Status.PLAYING:
        if rnd.assignments.filter(table=None).exists():
            return Step.OPEN if not t.paused else did
        _time_limit(rnd, now)
        if not rnd.assignments.exclude(status=Assignment.Status.FINISHED).exists():
            round_close(round=rnd, now=now)
            return Step.ROUND_CLOSED
        return did
    # The last round is finished: the next, or the end.
    if t.paused:
        return did
    nxt = seating.next_field(t, rnd)
    if nxt is None:
        tournament_finish(tournament=t, now=now)
        return Step.FINISHED
    seating.seat_round(t, rnd.number + 1, now, field=nxt)
    tell_pages(t)
    return Step.SEATED


def round_open_tables(*, tournament_id: int, now: datetime | None = None) -> tuple[int, int]:
    """Open the live tables of the tournament's seated round (or arena assignments not
    yet open), each in its own transaction; returns (opened, still to open)."""
    now = current_time(now)
    opened = 0
    pending = list(
        Assignment.objects.filter(
            round__tournament_id=tournament_id, table=None, status=Assignment.Status.PENDING
        )
        .order_by("round__number", "number")
        .values_list("pk", flat=True)[:OPEN_BATCH]
    )
    for pk in pending:
        with transaction.atomic():
            a = (
                Assignment.objects.select_for_update(skip_locked=True)
                .select_related("round__tournament")
                .filter(pk=pk, table=None)
                .first()
            )
            if a is None:
                continue
            t = a.round.tournament
            if t.status != S.RUNNING:
                continue
            _assignment_open(a, t, now)
            opened += 1
    left = Assignment.objects.filter(
        round__tournament_id=tournament_id, table=None, status=Assignment.Status.PENDING
    ).count()
    if not left:
        with transaction.atomic():
            rounds = Round.objects.select_for_update().filter(
                tournament_id=tournament_id, status=Round.Status.SEATED
            )
            for rnd in rounds:
                t = rnd.tournament
                rnd.status = Round.Status.PLAYING
                rnd.ends_at = now + timedelta(minutes=t.round_minutes) if t.round_minutes else None
                rnd.save(update_fields=["status", "ends_at"])
                tell_pages(t)
    return opened, left


def _assignment_open(a: Assignment, t: Tournament, now: datetime) -> None:
    # Before the round's first table deals: the entrants' seeds are final.
    _duplicate_step(t, a.round.number, now, seal=True)
    seats = sorted(a.seats.select_related("user"), key=lambda s: s.number)
    seating = [s.user for s in seats]
    opened = live.table_open(
        seating=seating,
        players=t.players_per_table,
        preset=t.preset,
        options=t.table_options(),
        rated=t.rated,
        move_seconds=t.move_seconds,
        bot_level=t.bot_level,
        dealing_source=_dealing_source(t, a.round.number),
    )
    # The live table's seat numbers are the turn table_open chose: record them.
    users = [u.pk if u is not None else None for u in opened.seats]
    AssignmentSeat.objects.filter(assignment=a).delete()
    AssignmentSeat.objects.bulk_create(
        AssignmentSeat(assignment=a, number=n, user_id=u) for n, u in enumerate(users)
    )
    a.table = opened.table
    a.status = Assignment.Status.PLAYING
    a.save(update_fields=["table", "status"])
    notices.notify(
        tournament=t,
        user_ids=[u for u in users if u is not None],
        kind=Notification.Kind.TABLE_READY,
        url=live.table_url(opened.table.pk),
    )


def assignment_record_result(*, result_id: int) -> int | None:
    """Record a finished match of a tournament table (the games app's ``match_finished``);
    returns the tournament's id, or None when it is not a tournament's table or was
    recorded already."""
    result = live.result_of(result_id)
    if result is None:
        return None
    with transaction.atomic():
        a = (
            Assignment.objects.select_for_update()
            .select_related("round__tournament")
            .filter(table_id=result.table_id)
            .first()
        )
        if a is None or a.status == Assignment.Status.FINISHED:
            return None
        _record_result(a, result)
        return a.round.tournament_id


def _record_result(a: Assignment, result: MatchResult) -> None:
    _record(
        a,
        list(result.placements),
        list(result.final_scores),
        result.finished_at,
        early=result.finished_by not in BY_THE_RULES,
    )


def _record(
    a: Assignment, places: list[int], scores: list[int], when: datetime, early: bool = False
) -> None:
    t = a.round.tournament
    for seat in a.seats.all():
        seat.place = places[seat.number]
        seat.score = scores[seat.number]
        seat.points = t.points_for(seat.place)
        seat.save(update_fields=["place", "score", "points"])
    a.status = Assignment.Status.FINISHED
    a.finished_at = when
    a.stopped_early = early
    a.save(update_fields=["status", "finished_at", "stopped_early"])
    tell_pages(t)


def _sweep_tables(t: Tournament, now: datetime) -> Step:
    """Results whose task was lost, and tables that ended without a result."""
    did = Step.NOTHING
    live_ones = (
        Assignment.objects.filter(
            round__tournament=t, status__in=(Assignment.Status.PLAYING, Assignment.Status.STOPPING)
        )
        .exclude(table=None)
        .select_related("table")
    )
    for a in live_ones:
        assert a.table is not None
        if a.table.status == Table.Status.FINISHED:
            result = MatchResult.objects.filter(table=a.table).first()
            if result is not None and assignment_record_result(result_id=result.pk) is not None:
                did = Step.RESULTS
        elif a.table.status == Table.Status.ABANDONED:
            _stop_and_rank(a, live.table_lock(a.table.pk), now)
            did = Step.RESULTS
    return did


def _time_limit(rnd: Round, now: datetime) -> None:
    """At the time limit each table is told to finish after its deal in play: the games
    app then ends the match with a result (``time``) that is recorded like any other. A
    deal still unfinished ``STOP_GRACE`` later is cut: the match ends at once, counted
    up to its last complete deal."""
    if rnd.ends_at is None or now < rnd.ends_at:
        return
    for a in rnd.assignments.filter(
        status__in=(Assignment.Status.PLAYING, Assignment.Status.STOPPING)
    ).exclude(table=None):
        assert a.table_id is not None
        table = live.table_lock(a.table_id)
        if table.status == Table.Status.FINISHED:
            continue  # its result is on its way (and the sweep picks up a lost one)
        if table.status == Table.Status.ABANDONED:
            _stop_and_rank(a, table, now)  # ended without a result (before results existed)
            continue
        if a.status == Assignment.Status.PLAYING:
            a.status = Assignment.Status.STOPPING
            a.deals_at_limit = live.table_progress(table).deals
            a.save(update_fields=["status", "deals_at_limit"])
            live.table_finish_after_deal(table)
            continue
        if now >= rnd.ends_at + STOP_GRACE:
            result = live.table_finish_now(table)
            if result is not None:
                _record_result(
                    Assignment.objects.select_related("round__tournament").get(pk=a.pk), result
                )


def _stop_and_rank(a: Assignment, table: Table, now: datetime) -> None:
    progress = live.table_progress(table)
    last = {i for i, r in enumerate(progress.resigned) if r}
    places = scoring.places_by_score(progress.scores, last)
    live.table_stop(table)
    a = Assignment.objects.select_related("round__tournament").get(pk=a.pk)
    _record(a, places, progress.scores, now, early=True)


def round_close(*, round: Round, now: datetime | None = None) -> None:
    rnd = Round.objects.select_for_update().get(pk=round.pk)
    if rnd.status == Round.Status.FINISHED:
        return
    rnd.status = Round.Status.FINISHED
    rnd.finished_at = current_time(now)
    rnd.save(update_fields=["status", "finished_at"])
    _duplicate_step(rnd.tournament, rnd.number, rnd.finished_at, seal=False)
    standings.write_standings(rnd.tournament)
    tell_pages(rnd.tournament)


def _dealing_source(t: Tournament, number: int) -> dict[str, object] | None:
    """A duplicate round's sequence for its tables (sealed: the seeds are final)."""
    if t.format != Tournament.Format.DUPLICATE:
        return None
    dealing = DuplicateDealing.objects.get(tournament=t, round_number=number)
    return {
        "round_seed": dealing.round_seed,
        "round_commitment": dealing.commitment,
        "entrant_seeds": {str(k): v for k, v in duplicate.entrant_seeds(dealing).items()},
    }


def _duplicate_step(t: Tournament, number: int, now: datetime, *, seal: bool) -> None:
    """A duplicate round's dealing: sealed when its tables start, revealed at its end."""
    if t.format != Tournament.Format.DUPLICATE:
        return
    dealing = DuplicateDealing.objects.filter(tournament=t, round_number=number).first()
    if dealing is None:
        return
    if seal:
        duplicate.duplicate_seal(dealing=dealing, now=now)
        return
    duplicate.duplicate_reveal(dealing=dealing, now=now)
    for table_id in (
        Assignment.objects.filter(round__tournament=t, round__number=number)
        .exclude(table=None)
        .values_list("table_id", flat=True)
    ):
        live.table_dealings_reveal(table_id)
    duplicate.duplicate_rate_round(tournament=t, number=number)


def _arena_step(t: Tournament, rnd: Round, now: datetime) -> Step:
    if now >= t.arena_ends_at:
        if rnd.ends_at is None:
            rnd.ends_at = t.arena_ends_at
            rnd.save(update_fields=["ends_at"])
        Assignment.objects.filter(round=rnd, table=None).delete()
        _time_limit(rnd, now)
        if not rnd.assignments.exclude(status=Assignment.Status.FINISHED).exists():
            round_close(round=rnd, now=now)
            tournament_finish(tournament=t, now=now)
            return Step.FINISHED
        return Step.NOTHING
    if t.paused:
        return Step.NOTHING
    if rnd.assignments.filter(table=None).exists():
        return Step.OPEN
    busy = set(
        AssignmentSeat.objects.filter(assignment__round=rnd, user__isnull=False)
        .exclude(assignment__status=Assignment.Status.FINISHED)
        .values_list("user_id", flat=True)
    )
    last_done = dict(
        AssignmentSeat.objects.filter(assignment__round=rnd, user__isnull=False)
        .values_list("user_id")
        .annotate(last=Max("assignment__finished_at"))
        .values_list("user_id", "last")
    )
    start = t.started_at or t.starts_at
    waiting = []
    for reg in seating.players_in_play(t):
        if reg.user_id in busy:
            continue
        since = max(
            d for d in (start, reg.checked_in_at, last_done.get(reg.user_id)) if d is not None
        )
        waiting.append(pairing.Waiting(reg.user_id, reg.rating, (since - start).total_seconds()))
    tables = pairing.arena_seating(
        waiting,
        seats=t.players_per_table,
        now=(now - start).total_seconds(),
        history=seating.field_history(t),
        base_range=t.arena_range,
        widen_per_second=t.arena_widen / 10,
        bot_after=ARENA_BOT_AFTER,
        seed=t.seed + rnd.assignments.count(),
    )
    if not tables:
        return Step.NOTHING
    first = (rnd.assignments.aggregate(n=Max("number"))["n"] or 0) + 1
    for i, table in enumerate(tables, start=first):
        a = Assignment.objects.create(round=rnd, number=i)
        AssignmentSeat.objects.bulk_create(
            AssignmentSeat(assignment=a, number=seat, user_id=user)
            for seat, user in enumerate(table)
        )
    return Step.OPEN


@transaction.atomic
def tournament_finish(*, tournament: Tournament, now: datetime | None = None) -> Tournament:
    t = locked_tournament(tournament)
    if t.status == S.FINISHED:
        return t
    if t.status != S.RUNNING:
        raise errors.WrongState()
    standings.write_standings(t)
    t.status = S.FINISHED
    t.finished_at = current_time(now)
    t.save(update_fields=["status", "finished_at"])
    tell_pages(t)
    return t
