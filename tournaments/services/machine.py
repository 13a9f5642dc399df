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
    current_time,
    tell_pages,
    tournament_lock,
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
        Q(status=Tournament.Status.RUNNING)
        | Q(status=Tournament.Status.SCHEDULED, registration_opens_at__lte=now)
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
        tournament = (
            Tournament.objects.select_for_update(skip_locked=True)
            .filter(pk=tournament_id, status__in=Tournament.ACTIVE)
            .first()
        )
        if tournament is None:
            active = Tournament.objects.filter(pk=tournament_id, status__in=Tournament.ACTIVE)
            return Step.BUSY if active.exists() else Step.NOTHING
        did = _step_locked(tournament, now)
    if did == Step.OPEN:
        _opened, left = round_open_tables(tournament_id=tournament_id, now=now)
        return Step.MORE if left else Step.OPENED
    return did


def _step_locked(tournament: Tournament, now: datetime) -> Step:
    if (
        tournament.status == Tournament.Status.SCHEDULED
        and now >= tournament.registration_opens_at
        and not tournament.paused
    ):
        organiser.tournament_open_registration(tournament=tournament, now=now)
        return Step.REGISTRATION
    if (
        tournament.status == Tournament.Status.REGISTRATION
        and tournament.check_in_minutes
        and now >= tournament.check_in_opens_at
        and not tournament.paused
    ):
        organiser.tournament_open_check_in(tournament=tournament, now=now)
        return Step.CHECK_IN
    if (
        tournament.status in Tournament.ENTERABLE
        and now >= tournament.starts_at
        and not tournament.paused
    ):
        organiser.tournament_start(tournament=tournament, now=now)
        return Step.START
    if tournament.status != Tournament.Status.RUNNING:
        return Step.NOTHING
    did = _sweep_tables(tournament, now)
    if Assignment.objects.filter(
        round__tournament=tournament, status=Assignment.Status.FINISHED, in_standings=False
    ).exists():
        standings.standings_write(tournament=tournament)
        did = did or Step.STANDINGS
    round_ = tournament.round_set.order_by("-number").first()
    if round_ is None:
        return did
    if tournament.format == Tournament.Format.ARENA:
        return _arena_step(tournament, round_, now) or did
    if round_.status == Round.Status.SEATED:
        if tournament.paused or now < round_.starts_at:
            return did
        return Step.OPEN
    if round_.status == Round.Status.PLAYING:
        if round_.assignments.filter(table=None).exists():
            return Step.OPEN if not tournament.paused else did
        _round_time_limit(round_, now)
        if not round_.assignments.exclude(status=Assignment.Status.FINISHED).exists():
            round_close(round=round_, now=now)
            return Step.ROUND_CLOSED
        return did
    # The last round is finished: the next, or the end.
    if tournament.paused:
        return did
    nxt = seating.round_next_field(tournament=tournament, last=round_)
    if nxt is None:
        tournament_finish(tournament=tournament, now=now)
        return Step.FINISHED
    seating.round_seat(tournament=tournament, number=round_.number + 1, now=now, field=nxt)
    tell_pages(tournament)
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
            assignment = (
                Assignment.objects.select_for_update(skip_locked=True)
                .select_related("round__tournament")
                .filter(pk=pk, table=None)
                .first()
            )
            if assignment is None:
                continue
            tournament = assignment.round.tournament
            if tournament.status != Tournament.Status.RUNNING:
                continue
            _assignment_open(assignment, tournament, now)
            opened += 1
    left = Assignment.objects.filter(
        round__tournament_id=tournament_id, table=None, status=Assignment.Status.PENDING
    ).count()
    if not left:
        with transaction.atomic():
            rounds = Round.objects.select_for_update().filter(
                tournament_id=tournament_id, status=Round.Status.SEATED
            )
            for round_ in rounds:
                tournament = round_.tournament
                round_.status = Round.Status.PLAYING
                round_.ends_at = (
                    now + timedelta(minutes=tournament.round_minutes)
                    if tournament.round_minutes
                    else None
                )
                round_.save(update_fields=["status", "ends_at"])
                tell_pages(tournament)
    return opened, left


def _assignment_open(assignment: Assignment, tournament: Tournament, now: datetime) -> None:
    # Before the round's first table deals: the entrants' seeds are final.
    _duplicate_step(tournament, assignment.round.number, now, seal=True)
    seats = sorted(assignment.seats.select_related("user"), key=lambda s: s.number)
    seating = [s.user for s in seats]
    opened = live.table_open(
        seating=seating,
        players=tournament.players_per_table,
        preset=tournament.preset,
        options=tournament.table_options(),
        rated=tournament.rated,
        move_seconds=tournament.move_seconds,
        bot_level=tournament.bot_level,
        dealing_source=_dealing_source(tournament, assignment.round.number),
    )
    # The live table's seat numbers are the turn table_open chose: record them.
    users = [u.pk if u is not None else None for u in opened.seats]
    AssignmentSeat.objects.filter(assignment=assignment).delete()
    AssignmentSeat.objects.bulk_create(
        AssignmentSeat(assignment=assignment, number=n, user_id=u) for n, u in enumerate(users)
    )
    assignment.table = opened.table
    assignment.status = Assignment.Status.PLAYING
    assignment.save(update_fields=["table", "status"])
    notices.notifications_create(
        tournament=tournament,
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
        assignment = (
            Assignment.objects.select_for_update()
            .select_related("round__tournament")
            .filter(table_id=result.table_id)
            .first()
        )
        if assignment is None or assignment.status == Assignment.Status.FINISHED:
            return None
        _result_record(assignment, result)
        return assignment.round.tournament_id


def _result_record(assignment: Assignment, result: MatchResult) -> None:
    _record(
        assignment,
        list(result.placements),
        list(result.final_scores),
        result.finished_at,
        early=result.finished_by not in BY_THE_RULES,
    )


def _record(
    assignment: Assignment,
    places: list[int],
    scores: list[int],
    when: datetime,
    early: bool = False,
) -> None:
    tournament = assignment.round.tournament
    for seat in assignment.seats.all():
        seat.place = places[seat.number]
        seat.score = scores[seat.number]
        seat.points = tournament.points_for(seat.place)
        seat.save(update_fields=["place", "score", "points"])
    assignment.status = Assignment.Status.FINISHED
    assignment.finished_at = when
    assignment.stopped_early = early
    assignment.save(update_fields=["status", "finished_at", "stopped_early"])
    tell_pages(tournament)


def _sweep_tables(tournament: Tournament, now: datetime) -> Step:
    """Results whose task was lost, and tables that ended without a result."""
    did = Step.NOTHING
    live_ones = (
        Assignment.objects.filter(
            round__tournament=tournament,
            status__in=(Assignment.Status.PLAYING, Assignment.Status.STOPPING),
        )
        .exclude(table=None)
        .select_related("table")
    )
    for assignment in live_ones:
        assert assignment.table is not None
        if assignment.table.status == Table.Status.FINISHED:
            result = MatchResult.objects.filter(table=assignment.table).first()
            if result is not None and assignment_record_result(result_id=result.pk) is not None:
                did = Step.RESULTS
        elif assignment.table.status == Table.Status.ABANDONED:
            _assignment_stop_and_rank(assignment, live.table_lock(assignment.table.pk), now)
            did = Step.RESULTS
    return did


def _round_time_limit(round_: Round, now: datetime) -> None:
    """At the time limit each table is told to finish after its deal in play: the games
    app then ends the match with a result (``time``) that is recorded like any other. A
    deal still unfinished ``STOP_GRACE`` later is cut: the match ends at once, counted
    up to its last complete deal."""
    if round_.ends_at is None or now < round_.ends_at:
        return
    for assignment in round_.assignments.filter(
        status__in=(Assignment.Status.PLAYING, Assignment.Status.STOPPING)
    ).exclude(table=None):
        assert assignment.table_id is not None
        table = live.table_lock(assignment.table_id)
        if table.status == Table.Status.FINISHED:
            continue  # its result is on its way (and the sweep picks up a lost one)
        if table.status == Table.Status.ABANDONED:
            _assignment_stop_and_rank(
                assignment, table, now
            )  # ended without a result (before results existed)
            continue
        if assignment.status == Assignment.Status.PLAYING:
            assignment.status = Assignment.Status.STOPPING
            assignment.deals_at_limit = live.table_progress(table).deals
            assignment.save(update_fields=["status", "deals_at_limit"])
            live.table_finish_after_deal(table)
            continue
        if now >= round_.ends_at + STOP_GRACE:
            result = live.table_finish_now(table)
            if result is not None:
                _result_record(
                    Assignment.objects.select_related("round__tournament").get(pk=assignment.pk),
                    result,
                )


def _assignment_stop_and_rank(assignment: Assignment, table: Table, now: datetime) -> None:
    progress = live.table_progress(table)
    last = {i for i, r in enumerate(progress.resigned) if r}
    places = scoring.places_by_score(progress.scores, last)
    live.table_stop(table)
    assignment = Assignment.objects.select_related("round__tournament").get(pk=assignment.pk)
    _record(assignment, places, progress.scores, now, early=True)


def round_close(*, round: Round, now: datetime | None = None) -> None:
    round_ = Round.objects.select_for_update().get(pk=round.pk)
    if round_.status == Round.Status.FINISHED:
        return
    round_.status = Round.Status.FINISHED
    round_.finished_at = current_time(now)
    round_.save(update_fields=["status", "finished_at"])
    _duplicate_step(round_.tournament, round_.number, round_.finished_at, seal=False)
    standings.standings_write(tournament=round_.tournament)
    tell_pages(round_.tournament)


def _dealing_source(tournament: Tournament, number: int) -> dict[str, object] | None:
    """A duplicate round's sequence for its tables (sealed: the seeds are final)."""
    if tournament.format != Tournament.Format.DUPLICATE:
        return None
    dealing = DuplicateDealing.objects.get(tournament=tournament, round_number=number)
    return {
        "round_seed": dealing.round_seed,
        "round_commitment": dealing.commitment,
        "entrant_seeds": {str(k): v for k, v in duplicate.entrant_seeds(dealing).items()},
    }


def _duplicate_step(tournament: Tournament, number: int, now: datetime, *, seal: bool) -> None:
    """A duplicate round's dealing: sealed when its tables start, revealed at its end."""
    if tournament.format != Tournament.Format.DUPLICATE:
        return
    dealing = DuplicateDealing.objects.filter(tournament=tournament, round_number=number).first()
    if dealing is None:
        return
    if seal:
        duplicate.duplicate_seal(dealing=dealing, now=now)
        return
    duplicate.duplicate_reveal(dealing=dealing, now=now)
    for table_id in (
        Assignment.objects.filter(round__tournament=tournament, round__number=number)
        .exclude(table=None)
        .values_list("table_id", flat=True)
    ):
        live.table_dealings_reveal(table_id)
    duplicate.duplicate_rate_round(tournament=tournament, number=number)


def _arena_step(tournament: Tournament, round_: Round, now: datetime) -> Step:
    if now >= tournament.arena_ends_at:
        if round_.ends_at is None:
            round_.ends_at = tournament.arena_ends_at
            round_.save(update_fields=["ends_at"])
        Assignment.objects.filter(round=round_, table=None).delete()
        _round_time_limit(round_, now)
        if not round_.assignments.exclude(status=Assignment.Status.FINISHED).exists():
            round_close(round=round_, now=now)
            tournament_finish(tournament=tournament, now=now)
            return Step.FINISHED
        return Step.NOTHING
    if tournament.paused:
        return Step.NOTHING
    if round_.assignments.filter(table=None).exists():
        return Step.OPEN
    busy = set(
        AssignmentSeat.objects.filter(assignment__round=round_, user__isnull=False)
        .exclude(assignment__status=Assignment.Status.FINISHED)
        .values_list("user_id", flat=True)
    )
    last_done = dict(
        AssignmentSeat.objects.filter(assignment__round=round_, user__isnull=False)
        .values_list("user_id")
        .annotate(last=Max("assignment__finished_at"))
        .values_list("user_id", "last")
    )
    start = tournament.started_at or tournament.starts_at
    waiting = []
    for reg in seating.players_in_play(tournament):
        if reg.user_id in busy:
            continue
        since = max(
            d for d in (start, reg.checked_in_at, last_done.get(reg.user_id)) if d is not None
        )
        waiting.append(pairing.Waiting(reg.user_id, reg.rating, (since - start).total_seconds()))
    tables = pairing.arena_seating(
        waiting,
        seats=tournament.players_per_table,
        now=(now - start).total_seconds(),
        history=seating.field_history(tournament),
        base_range=tournament.arena_range,
        widen_per_second=tournament.arena_widen / 10,
        bot_after=ARENA_BOT_AFTER,
        seed=tournament.seed + round_.assignments.count(),
    )
    if not tables:
        return Step.NOTHING
    first = (round_.assignments.aggregate(n=Max("number"))["n"] or 0) + 1
    for i, table in enumerate(tables, start=first):
        assignment = Assignment.objects.create(round=round_, number=i)
        AssignmentSeat.objects.bulk_create(
            AssignmentSeat(assignment=assignment, number=seat, user_id=user)
            for seat, user in enumerate(table)
        )
    return Step.OPEN


@transaction.atomic
def tournament_finish(*, tournament: Tournament, now: datetime | None = None) -> Tournament:
    tournament = tournament_lock(tournament)
    if tournament.status == Tournament.Status.FINISHED:
        return tournament
    if tournament.status != Tournament.Status.RUNNING:
        raise errors.WrongState()
    standings.standings_write(tournament=tournament)
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = current_time(now)
    tournament.save(update_fields=["status", "finished_at"])
    tell_pages(tournament)
    return tournament
