"""Writes on tournaments: the organiser's actions, the players' and the state machine the
Celery tick drives. Keyword-only and atomic; errors (``tournaments.errors``) are raised
before anything changes.

The state machine::

    draft → scheduled → registration → check_in → running → finished
                 (any of them, before finished)      ↘ cancelled

and, while running, each round (Swiss, knockout)::

    seated → playing → finished        (an arena: one round, playing for its duration)

with each table of a round (:class:`Assignment`)::

    pending → playing → (stopping →) finished

Every step is idempotent and safe when two ticks overlap or a worker dies half way:

- a step holds the tournament's row lock (the tick skips a tournament another worker is
  stepping), and is one transaction: a worker killed in it leaves nothing behind;
- live tables are opened one assignment at a time, each under its row lock with
  ``skip_locked`` (two workers share the work; a table is opened once, its id saved in
  the same transaction);
- a round's and a table's number are unique (a round cannot be seated twice);
- a result is recorded once per assignment (the assignment's row lock and status), and
  the tick also sweeps for results whose task was lost;
- standings are recomputed from the recorded facts, never added to.
"""

from __future__ import annotations

import logging
import random
from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F, Max, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import FinishedBy, MatchResult, Table
from tournaments import errors, live, notices, pairing, scoring
from tournaments.models import (
    Assignment,
    AssignmentSeat,
    Notification,
    Registration,
    Round,
    Standing,
    Tournament,
)
from tournaments.validation import tournament_errors

log = logging.getLogger(__name__)

S = Tournament.Status
R = Registration.Status

STOP_GRACE = timedelta(minutes=15)
"""After a time limit, a deal still unfinished this much later is cut short too."""

ARENA_BOT_AFTER = 120.0
"""Arena: seconds a player waits before he is seated with bots."""

CHECK_IN_HORIZON = timedelta(days=1)
"""A tournament in registration is stepped from this long before its start."""

OPEN_BATCH = 50
"""Live tables opened by one step; a step that leaves more asks for another at once."""


def _now(now: datetime | None) -> datetime:
    return now or timezone.now()


def _locked(tournament: Tournament | int) -> Tournament:
    pk = tournament if isinstance(tournament, int) else tournament.pk
    try:
        return Tournament.objects.select_for_update().get(pk=pk)
    except Tournament.DoesNotExist:
        raise errors.NotFound() from None


def _check(t: Tournament) -> None:
    problems = tournament_errors(t)
    if problems:
        raise errors.Invalid("; ".join(m for ms in problems.values() for m in ms))


def _changed(t: Tournament) -> None:
    """Tell the tournament's pages after the commit."""
    from tournaments import realtime

    pk = t.pk
    transaction.on_commit(lambda: realtime.tournament_changed(pk))


# -- the organiser -------------------------------------------------------------------------


@transaction.atomic
def tournament_create(*, created_by: Any, **fields: Any) -> Tournament:
    """A draft tournament; its settings are checked (``errors.Invalid``)."""
    t = Tournament(created_by=created_by, **fields)
    if not t.seed:
        t.seed = random.SystemRandom().randrange(1, 2**31)
    _check(t)
    t.save()
    return t


@transaction.atomic
def tournament_schedule(*, tournament: Tournament) -> Tournament:
    """Announce a draft: it shows on the site and runs by itself from now on."""
    t = _locked(tournament)
    if t.status == S.SCHEDULED:
        return t
    if t.status != S.DRAFT:
        raise errors.WrongState()
    _check(t)
    t.status = S.SCHEDULED
    t.save(update_fields=["status"])
    _changed(t)
    return t


@transaction.atomic
def tournament_open_registration(
    *, tournament: Tournament, now: datetime | None = None, early: bool = False
) -> Tournament:
    """Open registration (the tick, at ``registration_opens_at``; the organiser, early)."""
    t = _locked(tournament)
    now = _now(now)
    if t.status in Tournament.ENTERABLE:
        return t
    if t.status != S.SCHEDULED:
        raise errors.WrongState()
    if early and now < t.registration_opens_at:
        t.registration_opens_at = now
    t.status = S.REGISTRATION
    t.save(update_fields=["status", "registration_opens_at"])
    _changed(t)
    return t


@transaction.atomic
def tournament_close_registration(
    *, tournament: Tournament, now: datetime | None = None
) -> Tournament:
    """Close registration early: nobody else may register; check-in goes on."""
    t = _locked(tournament)
    now = _now(now)
    if t.status not in (S.SCHEDULED, *Tournament.ENTERABLE):
        raise errors.WrongState()
    if now < t.closes_at:
        t.registration_closes_at = max(now, t.registration_opens_at)
        t.save(update_fields=["registration_closes_at"])
        _changed(t)
    return t


@transaction.atomic
def tournament_open_check_in(*, tournament: Tournament, now: datetime | None = None) -> Tournament:
    t = _locked(tournament)
    if t.status == S.CHECK_IN:
        return t
    if t.status != S.REGISTRATION:
        raise errors.WrongState()
    t.status = S.CHECK_IN
    t.save(update_fields=["status"])
    notices.notify(
        tournament=t,
        user_ids=t.registrations.filter(status=R.REGISTERED).values_list("user_id", flat=True),
        kind=Notification.Kind.CHECK_IN,
        url=reverse("tournaments:detail", args=[t.pk]),
    )
    _changed(t)
    return t


@transaction.atomic
def tournament_start(
    *, tournament: Tournament, now: datetime | None = None, early: bool = False
) -> Tournament:
    """Start with the players checked in (everyone registered, without a check-in
    window); the others are dropped as no-shows. Fewer than two: cancelled."""
    t = _locked(tournament)
    now = _now(now)
    if t.status == S.RUNNING:
        return t
    if t.status not in (S.SCHEDULED, *Tournament.ENTERABLE):
        raise errors.WrongState()
    regs = t.registrations.filter(status__in=(R.REGISTERED, R.CHECKED_IN))
    if t.check_in_minutes:
        regs.filter(status=R.REGISTERED).update(status=R.NO_SHOW)
    else:
        regs.filter(status=R.REGISTERED).update(status=R.CHECKED_IN, checked_in_at=now)
    field = t.registrations.filter(status=R.CHECKED_IN).count()
    t.started_at = now
    if early and now < t.starts_at:
        t.starts_at = now
    if field < 2:
        t.status = S.CANCELLED
        t.cancel_reason = _("Fewer than two players checked in.")
        t.finished_at = now
        t.save(update_fields=["status", "cancel_reason", "started_at", "finished_at", "starts_at"])
        _changed(t)
        return t
    t.status = S.RUNNING
    t.save(update_fields=["status", "started_at", "starts_at"])
    if t.format == Tournament.Format.ARENA:
        Round.objects.create(
            tournament=t,
            number=1,
            status=Round.Status.PLAYING,
            starts_at=now,
            ends_at=t.arena_ends_at,
        )
    else:
        _round_seat(t, 1, now)
    _standings_write(t)
    _changed(t)
    return t


@transaction.atomic
def tournament_pause(*, tournament: Tournament, paused: bool = True) -> Tournament:
    """Pause (or resume): nothing new is seated or started; tables in play go on."""
    t = _locked(tournament)
    if t.status in (S.FINISHED, S.CANCELLED):
        raise errors.WrongState()
    t.paused = paused
    t.save(update_fields=["paused"])
    _changed(t)
    return t


@transaction.atomic
def tournament_cancel(
    *, tournament: Tournament, reason: str = "", now: datetime | None = None
) -> Tournament:
    """Cancel: live tables in play are stopped (no results), nothing more happens."""
    t = _locked(tournament)
    if t.status == S.CANCELLED:
        return t
    if t.status == S.FINISHED:
        raise errors.WrongState()
    for a in Assignment.objects.filter(round__tournament=t).exclude(
        status=Assignment.Status.FINISHED
    ):
        if a.table_id is not None:
            live.table_stop(live.table_lock(a.table_id))
    t.status = S.CANCELLED
    t.cancel_reason = reason[:200]
    t.finished_at = _now(now)
    t.save(update_fields=["status", "cancel_reason", "finished_at"])
    _changed(t)
    return t


@transaction.atomic
def registration_disqualify(
    *, registration: Registration, reason: str = "", by: Any = None
) -> None:
    """Out of the event: not seated again, listed last; at a table now, he resigns there."""
    t = _locked(registration.tournament_id)
    reg = Registration.objects.select_for_update().get(pk=registration.pk)
    if reg.status == R.DISQUALIFIED:
        return
    if t.status in (S.FINISHED, S.CANCELLED):
        raise errors.WrongState()
    reg.status = R.DISQUALIFIED
    reg.reason = reason[:200]
    reg.left_at = timezone.now()
    reg.save(update_fields=["status", "reason", "left_at"])
    for a in _playing_assignments_of(t, reg.user_id):
        if a.table_id is not None:
            live.player_resign(table_id=a.table_id, user=reg.user)
    if t.status == S.RUNNING:
        _standings_write(t)
    _changed(t)


@transaction.atomic
def round_reseat(*, round: Round, now: datetime | None = None) -> Round:
    """Seat a round again before it starts (with a new draw for equal choices)."""
    t = _locked(round.tournament_id)
    rnd = Round.objects.select_for_update().get(pk=round.pk)
    if rnd.status != Round.Status.SEATED or rnd.assignments.exclude(table=None).exists():
        raise errors.WrongState(_("Only a round whose tables have not opened can be reseated."))
    number = rnd.number
    rnd.delete()
    t.seed += 1
    t.save(update_fields=["seed"])
    new = _round_seat(t, number, _now(now))
    _changed(t)
    return new


@transaction.atomic
def assignment_amend(
    *, assignment: Assignment, places: Sequence[int], by: Any = None, reason: str = ""
) -> Assignment:
    """Correct a finished table's places (by seat); the standings and the ratings follow."""
    t = _locked(assignment.round.tournament_id)
    a = Assignment.objects.select_for_update().get(pk=assignment.pk)
    assignment_amend_check(assignment=a, places=places)
    seats = list(a.seats.order_by("number"))
    for seat, place in zip(seats, places):
        seat.place = place
        seat.points = t.points_for(place)
        seat.save(update_fields=["place", "points"])
    a.amended = True
    a.save(update_fields=["amended"])
    result = MatchResult.objects.filter(table=a.table).first() if a.table_id else None
    if result is not None:
        live.ratings_amend(result=result, placements=list(places), by=by, reason=reason)
    _standings_write(t)
    _changed(t)
    return a


def assignment_amend_check(*, assignment: Assignment, places: Sequence[int]) -> None:
    """Raise the error :func:`assignment_amend` would give for these places (a form shows
    it before anything is saved); nothing is written."""
    k = assignment.seats.count()
    if assignment.status != Assignment.Status.FINISHED:
        raise errors.WrongState(_("Only a finished table's result can be amended."))
    if len(places) != k or any(not 1 <= p <= k for p in places) or 1 not in places:
        raise errors.Invalid(_("Give each seat a place from 1 to %(k)s, one of them 1.") % {"k": k})


# -- the players ---------------------------------------------------------------------------


def _registration_open(t: Tournament, now: datetime) -> bool:
    if t.status in Tournament.ENTERABLE:
        return now < t.closes_at
    # An arena takes late entries while it runs (until it ends).
    return t.status == S.RUNNING and t.format == Tournament.Format.ARENA and now < t.arena_ends_at


@transaction.atomic
def registration_create(
    *, tournament: Tournament | int, user: Any, now: datetime | None = None
) -> Registration:
    """Register (or register again after withdrawing). Checks the window, the entry
    conditions and the room left."""
    t = _locked(tournament)
    now = _now(now)
    if not _registration_open(t, now):
        raise errors.RegistrationClosed()
    reg = Registration.objects.select_for_update().filter(tournament=t, user=user).first()
    if reg is not None and reg.status not in (R.WITHDRAWN,):
        if reg.status == R.DISQUALIFIED:
            raise errors.NotEligible(_("You were disqualified from this tournament."))
        raise errors.AlreadyRegistered()
    rating, matches = live.player_rating(user=user, players=t.players_per_table)
    if t.min_rating is not None and rating < t.min_rating:
        raise errors.NotEligible(
            _("A rating of at least %(min)s is needed; yours is %(yours)s.")
            % {"min": t.min_rating, "yours": round(rating)}
        )
    if matches < t.min_rated_matches:
        raise errors.NotEligible(
            _("At least %(min)s rated matches are needed; you have %(yours)s.")
            % {"min": t.min_rated_matches, "yours": matches}
        )
    entered = t.registrations.filter(status__in=(R.REGISTERED, R.CHECKED_IN)).count()
    if t.max_players is not None and entered >= t.max_players:
        raise errors.Full()
    # During check-in (or a running arena) registering checks in at once.
    status = R.CHECKED_IN if t.status in (S.CHECK_IN, S.RUNNING) else R.REGISTERED
    checked_in_at = now if status == R.CHECKED_IN else None
    if reg is None:
        reg = Registration.objects.create(
            tournament=t,
            user=user,
            status=status,
            rating=rating,
            registered_at=now,
            checked_in_at=checked_in_at,
        )
    else:
        reg.status, reg.rating, reg.checked_in_at = status, rating, checked_in_at
        reg.left_at, reg.reason = None, ""
        reg.save(update_fields=["status", "rating", "checked_in_at", "left_at", "reason"])
    if t.status == S.RUNNING:
        _standings_write(t)
    _changed(t)
    return reg


@transaction.atomic
def registration_add_walk_in(
    *, tournament: Tournament | int, user: Any, check_in: bool = True, now: datetime | None = None
) -> Registration:
    """The organiser enters a player (a walk-in), also after registration closed or
    check-in opened: checked in at once when check-in is open, the event is running or
    ``check_in`` asks it (else registered). A running Swiss seats him from its next
    round; a running arena at once. The entry conditions are the organiser's call; a
    full event stays full (raise its maximum first)."""
    t = _locked(tournament)
    now = _now(now)
    late = t.status == S.RUNNING and t.format != Tournament.Format.KNOCKOUT
    if t.status not in (S.SCHEDULED, *Tournament.ENTERABLE) and not late:
        raise errors.WrongState(
            _("Players can be added until the start (a Swiss or an arena: until its end).")
        )
    reg = Registration.objects.select_for_update().filter(tournament=t, user=user).first()
    if reg is not None and reg.status in (R.REGISTERED, R.CHECKED_IN):
        if check_in and reg.status == R.REGISTERED:
            return registration_admin_check_in(registration=reg, now=now)
        raise errors.AlreadyRegistered()
    entered = t.registrations.filter(status__in=(R.REGISTERED, R.CHECKED_IN)).count()
    if t.max_players is not None and entered >= t.max_players:
        raise errors.Full()
    rating, _matches = live.player_rating(user=user, players=t.players_per_table)
    checked = check_in or t.status in (S.CHECK_IN, S.RUNNING)
    status = R.CHECKED_IN if checked else R.REGISTERED
    if reg is None:
        reg = Registration(tournament=t, user=user)
    reg.status, reg.rating, reg.registered_at = status, rating, now
    reg.checked_in_at = now if checked else None
    reg.left_at, reg.reason = None, ""
    reg.save()
    if t.status == S.RUNNING:
        _standings_write(t)
    _changed(t)
    return reg


@transaction.atomic
def registration_admin_check_in(
    *, registration: Registration, now: datetime | None = None
) -> Registration:
    """The organiser checks a registered player in (before or during check-in, or into
    a running Swiss or arena: from its next round)."""
    t = _locked(registration.tournament_id)
    reg = Registration.objects.select_for_update().get(pk=registration.pk)
    if reg.status == R.CHECKED_IN:
        return reg
    if reg.status != R.REGISTERED:
        raise errors.NotRegistered()
    late = t.status == S.RUNNING and t.format != Tournament.Format.KNOCKOUT
    if t.status not in (S.SCHEDULED, *Tournament.ENTERABLE) and not late:
        raise errors.CheckInClosed()
    reg.status = R.CHECKED_IN
    reg.checked_in_at = max(_now(now), reg.registered_at)
    reg.save(update_fields=["status", "checked_in_at"])
    if t.status == S.RUNNING:
        _standings_write(t)
    _changed(t)
    return reg


def _entry(t: Tournament, user: Any) -> Registration:
    """The user's registration, locked, if he is entered (registered or checked in)."""
    reg = Registration.objects.select_for_update().filter(tournament=t, user=user).first()
    if reg is None or reg.status not in (R.REGISTERED, R.CHECKED_IN):
        raise errors.NotRegistered()
    return reg


@transaction.atomic
def registration_withdraw(
    *, tournament: Tournament | int, user: Any, now: datetime | None = None
) -> Registration:
    """Leave the event: before it starts, or during it (not seated again; a table in
    play is played to the end — resign there to leave it)."""
    t = _locked(tournament)
    if t.status in (S.FINISHED, S.CANCELLED):
        raise errors.WrongState()
    reg = _entry(t, user)
    reg.status = R.WITHDRAWN
    reg.left_at = _now(now)
    reg.save(update_fields=["status", "left_at"])
    _changed(t)
    return reg


@transaction.atomic
def registration_check_in(
    *, tournament: Tournament | int, user: Any, now: datetime | None = None
) -> Registration:
    t = _locked(tournament)
    now = _now(now)
    reg = _entry(t, user)
    if reg.status == R.CHECKED_IN:
        return reg
    if t.status != S.CHECK_IN:
        raise errors.CheckInClosed()
    reg.status = R.CHECKED_IN
    reg.checked_in_at = now
    reg.save(update_fields=["status", "checked_in_at"])
    _changed(t)
    return reg


# -- the machine ---------------------------------------------------------------------------


def tournaments_due(now: datetime | None = None) -> list[int]:
    """The tournaments the tick should step now: running ones (results, rounds, the
    clock), and announced ones whose next moment (registration, check-in, start) has
    come. A paused tournament is stepped too: its results are still recorded."""
    now = _now(now)
    due = (
        Q(status=S.RUNNING)
        | Q(status=S.SCHEDULED, registration_opens_at__lte=now)
        # Registration ends in a start, and perhaps a check-in before it (a check-in
        # window is far shorter than a day).
        | Q(status__in=Tournament.ENTERABLE, starts_at__lte=now + CHECK_IN_HORIZON)
    )
    return list(Tournament.objects.filter(due).values_list("pk", flat=True))


def tournament_step(*, tournament_id: int, now: datetime | None = None) -> str:
    """Do what is due for one tournament now; returns what it did ("" for nothing,
    "busy" when another worker holds it, "more" when more of the same is due at once).

    Live tables are opened after the lock is released, one assignment at a time.
    """
    now = _now(now)
    with transaction.atomic():
        t = (
            Tournament.objects.select_for_update(skip_locked=True)
            .filter(pk=tournament_id, status__in=Tournament.ACTIVE)
            .first()
        )
        if t is None:
            active = Tournament.objects.filter(pk=tournament_id, status__in=Tournament.ACTIVE)
            return "busy" if active.exists() else ""
        did = _step_locked(t, now)
    if did == "open":
        opened, left = round_open_tables(tournament_id=tournament_id, now=now)
        return "more" if left else f"opened {opened}"
    return did


def _step_locked(t: Tournament, now: datetime) -> str:
    if t.status == S.SCHEDULED and now >= t.registration_opens_at and not t.paused:
        tournament_open_registration(tournament=t, now=now)
        return "registration"
    if (
        t.status == S.REGISTRATION
        and t.check_in_minutes
        and now >= t.check_in_opens_at
        and not t.paused
    ):
        tournament_open_check_in(tournament=t, now=now)
        return "check_in"
    if t.status in Tournament.ENTERABLE and now >= t.starts_at and not t.paused:
        tournament_start(tournament=t, now=now)
        return "start"
    if t.status != S.RUNNING:
        return ""
    did = _sweep_tables(t, now)
    if Assignment.objects.filter(
        round__tournament=t, status=Assignment.Status.FINISHED, in_standings=False
    ).exists():
        _standings_write(t)
        did = did or "standings"
    rnd = t.round_set.order_by("-number").first()
    if rnd is None:
        return did
    if t.format == Tournament.Format.ARENA:
        return _arena_step(t, rnd, now) or did
    if rnd.status == Round.Status.SEATED:
        if t.paused or now < rnd.starts_at:
            return did
        return "open"
    if rnd.status == Round.Status.PLAYING:
        if rnd.assignments.filter(table=None).exists():
            return "open" if not t.paused else did
        _time_limit(rnd, now)
        if not rnd.assignments.exclude(status=Assignment.Status.FINISHED).exists():
            round_close(round=rnd, now=now)
            return "round_closed"
        return did
    # The last round is finished: the next, or the end.
    if t.paused:
        return did
    nxt = _next_field(t, rnd)
    if nxt is None:
        tournament_finish(tournament=t, now=now)
        return "finished"
    _round_seat(t, rnd.number + 1, now, field=nxt)
    _changed(t)
    return "seated"


def _next_field(t: Tournament, last: Round) -> list[Registration] | None:
    """The players of the next round, or None when the event is over."""
    in_play = list(_in_play(t))
    if t.format == Tournament.Format.SWISS:
        if last.number >= (t.rounds or 0) or len(in_play) < 2:
            return None
        return in_play
    # Knockout: the qualifiers of the last round who are still in.
    if last.assignments.count() <= 1:
        return None
    by_user = {r.user_id: r for r in in_play}
    qualifiers = _knockout_qualifiers(t, last)
    field = [by_user[u] for u in qualifiers if u in by_user]
    return field if len(field) >= 2 else None


def _knockout_qualifiers(t: Tournament, rnd: Round) -> list[int]:
    """Next round's seeds: from each table its top humans (ties by seed), table winners
    first, each group by seed."""
    seed_of = _seeds(t)
    triples: list[tuple[int, int, int]] = []
    for a in rnd.assignments.prefetch_related("seats"):
        seats = sorted(a.seats.all(), key=lambda s: s.number)
        table = tuple(s.user_id for s in seats)
        finish = sorted(
            seats, key=lambda s: (s.place or 99, seed_of.get(s.user_id or 0, 10**6), s.number)
        )
        through = pairing.knockout_qualifiers([s.user_id for s in finish], table, t.advance)
        place = {s.user_id: s.place or 99 for s in seats}
        triples += [(place[u], seed_of.get(u, 10**6), u) for u in through]
    return pairing.knockout_next_seeds(triples)


def _seeds(t: Tournament) -> dict[int, int]:
    """Each player's seed (0 = best): the organiser's manual seeds first, then by
    rating at registration."""
    order = t.registrations.order_by(
        F("seed").asc(nulls_last=True), "-rating", "registered_at", "pk"
    ).values_list("user_id", flat=True)
    return {u: i for i, u in enumerate(order)}


def seed_key(r: Registration) -> tuple[Any, ...]:
    """The seeding order: manual seeds (1 = top) first, then by rating."""
    return (r.seed is None, r.seed or 0, -r.rating, r.registered_at, r.pk)


def _in_play(t: Tournament, everyone: bool = False) -> Any:
    regs = t.registrations.select_related("user")
    if everyone:
        return regs.exclude(status__in=(R.NO_SHOW,))
    return regs.filter(status=R.CHECKED_IN)


def _round_seat(
    t: Tournament, number: int, now: datetime, field: Sequence[Registration] | None = None
) -> Round:
    """Seat round ``number`` (Swiss or knockout): the assignments, no live tables yet."""
    k = t.players_per_table
    if field is None:
        field = list(_in_play(t))
    history = _history(t)
    if t.format == Tournament.Format.KNOCKOUT:
        if number == 1:
            field = sorted(field, key=seed_key)
        tables = pairing.knockout_seating(
            [r.user_id for r in field], seats=k, history=history, seed=t.seed + number
        )
    else:
        entrants = _swiss_order(t, field, first=number == 1)
        tables = pairing.swiss_seating(entrants, history, seats=k, seed=t.seed + number)
    pairing.check_round(tables, [r.user_id for r in field], k)
    try:
        with transaction.atomic():
            rnd = Round.objects.create(
                tournament=t,
                number=number,
                starts_at=now + timedelta(seconds=t.break_seconds),
            )
    except IntegrityError:
        return Round.objects.get(tournament=t, number=number)
    for i, table in enumerate(tables, start=1):
        a = Assignment.objects.create(round=rnd, number=i)
        AssignmentSeat.objects.bulk_create(
            AssignmentSeat(assignment=a, number=seat, user_id=user)
            for seat, user in enumerate(table)
        )
    return rnd


def _swiss_order(
    t: Tournament, field: Sequence[Registration], *, first: bool
) -> list[pairing.Entrant]:
    if first:
        ordered = sorted(field, key=seed_key)
        return [pairing.Entrant(r.user_id, 0) for r in ordered]
    rows = {s.user_id: s for s in t.standings.all()}

    def key(r: Registration) -> tuple[float, ...]:
        s = rows.get(r.user_id)
        return (s.position if s else 10**9, -r.rating, r.pk)

    ordered = sorted(field, key=key)
    return [
        pairing.Entrant(r.user_id, rows[r.user_id].points if r.user_id in rows else 0)
        for r in ordered
    ]


def _history(t: Tournament) -> pairing.History:
    """Every table of the event so far, in seat positions (0 = first dealer), oldest
    first."""
    history = pairing.History()
    assignments = (
        Assignment.objects.filter(round__tournament=t)
        .exclude(table=None)
        .select_related("table")
        .prefetch_related("seats")
        .order_by("round__number", "created_at", "pk")
    )
    for a in assignments:
        seats = sorted(a.seats.all(), key=lambda s: s.number)
        k = len(seats)
        dealer = (
            a.table.first_dealer if a.table is not None and a.table.first_dealer is not None else 0
        )
        by_position: list[int | None] = [None] * k
        for s in seats:
            by_position[(s.number - dealer) % k] = s.user_id
        history.add(by_position)
    return history


def round_open_tables(*, tournament_id: int, now: datetime | None = None) -> tuple[int, int]:
    """Open the live tables of the tournament's seated round (or arena assignments not
    yet open), each in its own transaction; returns (opened, still to open)."""
    now = _now(now)
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
                _changed(t)
    return opened, left


def _assignment_open(a: Assignment, t: Tournament, now: datetime) -> None:
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
        early=result.finished_by != FinishedBy.WON,
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
    _changed(t)


def _sweep_tables(t: Tournament, now: datetime) -> str:
    """Results whose task was lost, and tables that ended without a result."""
    did = ""
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
                did = "results"
        elif a.table.status == Table.Status.ABANDONED:
            _stop_and_rank(a, live.table_lock(a.table.pk), now)
            did = "results"
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
    rnd.finished_at = _now(now)
    rnd.save(update_fields=["status", "finished_at"])
    _standings_write(rnd.tournament)
    _changed(rnd.tournament)


def _arena_step(t: Tournament, rnd: Round, now: datetime) -> str:
    if now >= t.arena_ends_at:
        if rnd.ends_at is None:
            rnd.ends_at = t.arena_ends_at
            rnd.save(update_fields=["ends_at"])
        Assignment.objects.filter(round=rnd, table=None).delete()
        _time_limit(rnd, now)
        if not rnd.assignments.exclude(status=Assignment.Status.FINISHED).exists():
            round_close(round=rnd, now=now)
            tournament_finish(tournament=t, now=now)
            return "finished"
        return ""
    if t.paused:
        return ""
    if rnd.assignments.filter(table=None).exists():
        return "open"
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
    for reg in _in_play(t):
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
        history=_history(t),
        base_range=t.arena_range,
        widen_per_second=t.arena_widen / 10,
        bot_after=ARENA_BOT_AFTER,
        seed=t.seed + rnd.assignments.count(),
    )
    if not tables:
        return ""
    first = (rnd.assignments.aggregate(n=Max("number"))["n"] or 0) + 1
    for i, table in enumerate(tables, start=first):
        a = Assignment.objects.create(round=rnd, number=i)
        AssignmentSeat.objects.bulk_create(
            AssignmentSeat(assignment=a, number=seat, user_id=user)
            for seat, user in enumerate(table)
        )
    return "open"


@transaction.atomic
def tournament_finish(*, tournament: Tournament, now: datetime | None = None) -> Tournament:
    t = _locked(tournament)
    if t.status == S.FINISHED:
        return t
    if t.status != S.RUNNING:
        raise errors.WrongState()
    _standings_write(t)
    t.status = S.FINISHED
    t.finished_at = _now(now)
    t.save(update_fields=["status", "finished_at"])
    _changed(t)
    return t


# -- standings -----------------------------------------------------------------------------


def _playing_assignments_of(t: Tournament, user_id: int) -> list[Assignment]:
    return list(
        Assignment.objects.filter(
            round__tournament=t,
            status__in=(Assignment.Status.PLAYING, Assignment.Status.STOPPING),
            seats__user_id=user_id,
        )
    )


def standings_compute(t: Tournament) -> list[scoring.Row]:
    tables: dict[int, list[scoring.SeatResult]] = defaultdict(list)
    round_of: dict[int, int] = {}
    seats = AssignmentSeat.objects.filter(
        assignment__round__tournament=t, assignment__status=Assignment.Status.FINISHED
    ).values_list("assignment_id", "assignment__round__number", "user_id", "place", "score")
    for a, number, user, place, score in seats:
        tables[a].append(scoring.SeatResult(user, place or 0, score or 0))
        round_of[a] = number
    regs = t.registrations.exclude(status__in=(R.NO_SHOW,)).exclude(
        Q(status=R.WITHDRAWN)
        & Q(left_at__isnull=False)
        & Q(left_at__lt=t.started_at or timezone.now())
    )
    players = [r.user_id for r in regs]
    disqualified = {r.user_id for r in regs if r.status == R.DISQUALIFIED}
    return scoring.standings(
        (scoring.TableResult(round_of[a], tuple(s)) for a, s in tables.items()),
        points=t.placement_points,
        players=players,
        disqualified=disqualified,
        knockout=t.format == Tournament.Format.KNOCKOUT,
    )


def _standings_write(t: Tournament) -> None:
    """Recompute the standings from every recorded table (results recorded meanwhile
    are counted by the next step)."""
    counted = list(
        Assignment.objects.filter(
            round__tournament=t, status=Assignment.Status.FINISHED, in_standings=False
        ).values_list("pk", flat=True)
    )
    rows = standings_compute(t)
    Standing.objects.filter(tournament=t).delete()
    Standing.objects.bulk_create(
        Standing(
            tournament=t,
            user_id=r.player,
            rank=r.rank,
            position=i,
            points=r.points,
            matches=r.matches,
            wins=r.wins,
            opponents_points=r.opponents_points,
            game_score=r.game_score,
            head_to_head=r.head_to_head,
            stage=r.stage,
            disqualified=r.disqualified,
        )
        for i, r in enumerate(rows, start=1)
    )
    Assignment.objects.filter(pk__in=counted).update(in_standings=True)
