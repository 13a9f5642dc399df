"""The organiser's actions: create, schedule, open registration and check-in, start,
pause, cancel, disqualify, reseat, amend a result."""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.types import User
from games.models import MatchResult
from tournaments import errors, live, notices
from tournaments.models import (
    Assignment,
    Notification,
    Registration,
    Round,
    Tournament,
)
from tournaments.services import duplicate, seating, standings
from tournaments.services.common import (
    R,
    S,
    check_tournament,
    current_time,
    locked_tournament,
    tell_pages,
)

log = logging.getLogger(__name__)


@transaction.atomic
def tournament_create(*, created_by: User, **fields: Any) -> Tournament:
    """A draft tournament; its settings are checked (``errors.Invalid``)."""
    t = Tournament(created_by=created_by, **fields)
    if not t.seed:
        t.seed = random.SystemRandom().randrange(1, 2**31)
    check_tournament(t)
    t.save()
    return t


@transaction.atomic
def tournament_schedule(*, tournament: Tournament) -> Tournament:
    """Announce a draft: it shows on the site and runs by itself from now on."""
    t = locked_tournament(tournament)
    if t.status == S.SCHEDULED:
        return t
    if t.status != S.DRAFT:
        raise errors.WrongState()
    check_tournament(t)
    t.status = S.SCHEDULED
    t.save(update_fields=["status"])
    tell_pages(t)
    return t


@transaction.atomic
def tournament_open_registration(
    *, tournament: Tournament, now: datetime | None = None, early: bool = False
) -> Tournament:
    """Open registration (the tick, at ``registration_opens_at``; the organiser, early)."""
    t = locked_tournament(tournament)
    now = current_time(now)
    if t.status in Tournament.ENTERABLE:
        return t
    if t.status != S.SCHEDULED:
        raise errors.WrongState()
    if early and now < t.registration_opens_at:
        t.registration_opens_at = now
    t.status = S.REGISTRATION
    t.save(update_fields=["status", "registration_opens_at"])
    if t.format == Tournament.Format.DUPLICATE:
        # Round 1's dealing is published long before anybody is seated (docs/duplicate.md).
        duplicate.duplicate_commit(tournament=t, number=1, now=now)
    tell_pages(t)
    return t


@transaction.atomic
def tournament_close_registration(
    *, tournament: Tournament, now: datetime | None = None
) -> Tournament:
    """Close registration early: nobody else may register; check-in goes on."""
    t = locked_tournament(tournament)
    now = current_time(now)
    if t.status not in (S.SCHEDULED, *Tournament.ENTERABLE):
        raise errors.WrongState()
    if now < t.closes_at:
        t.registration_closes_at = max(now, t.registration_opens_at)
        t.save(update_fields=["registration_closes_at"])
        tell_pages(t)
    return t


@transaction.atomic
def tournament_open_check_in(*, tournament: Tournament, now: datetime | None = None) -> Tournament:
    t = locked_tournament(tournament)
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
    tell_pages(t)
    return t


@transaction.atomic
def tournament_start(
    *, tournament: Tournament, now: datetime | None = None, early: bool = False
) -> Tournament:
    """Start with the players checked in (everyone registered, without a check-in
    window); the others are dropped as no-shows. Fewer than two: cancelled."""
    t = locked_tournament(tournament)
    now = current_time(now)
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
        tell_pages(t)
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
        seating.seat_round(t, 1, now)
    standings.write_standings(t)
    tell_pages(t)
    return t


@transaction.atomic
def tournament_pause(*, tournament: Tournament, paused: bool = True) -> Tournament:
    """Pause (or resume): nothing new is seated or started; tables in play go on."""
    t = locked_tournament(tournament)
    if t.status in (S.FINISHED, S.CANCELLED):
        raise errors.WrongState()
    t.paused = paused
    t.save(update_fields=["paused"])
    tell_pages(t)
    return t


@transaction.atomic
def tournament_cancel(
    *, tournament: Tournament, reason: str, now: datetime | None = None
) -> Tournament:
    """Cancel, for a reason the entrants are told: live tables in play are stopped (no
    results), nothing more happens, and each entrant (registered, checked in or playing)
    finds the reason in his notification area and on the tournament's page."""
    reason = (reason or "").strip()
    if not reason:
        raise errors.Invalid(_("Say why the tournament is cancelled: its players are told."))
    t = locked_tournament(tournament)
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
    t.finished_at = current_time(now)
    t.save(update_fields=["status", "cancel_reason", "finished_at"])
    notices.notify(
        tournament=t,
        user_ids=t.registrations.filter(status__in=(R.REGISTERED, R.CHECKED_IN)).values_list(
            "user_id", flat=True
        ),
        kind=Notification.Kind.CANCELLED,
        text=t.cancel_reason,
        url=reverse("tournaments:detail", args=[t.pk]),
    )
    tell_pages(t)
    return t


@transaction.atomic
def registration_disqualify(
    *, registration: Registration, reason: str = "", by: User | None = None
) -> None:
    """Out of the event: not seated again, listed last; at a table now, he resigns there.
    After the event finished too: the standings are computed again without his rank (his
    tables' places stay as played: amend a result to change them). Not in a cancelled
    event, which has no standings."""
    t = locked_tournament(registration.tournament_id)
    reg = Registration.objects.select_for_update().get(pk=registration.pk)
    if reg.status == R.DISQUALIFIED:
        return
    disqualify_check(tournament=t)
    reg.status = R.DISQUALIFIED
    reg.reason = reason[:200]
    reg.left_at = timezone.now()
    reg.save(update_fields=["status", "reason", "left_at"])
    for a in standings.playing_assignments_of(t, reg.user_id):
        if a.table_id is not None:
            live.player_resign(table_id=a.table_id, user=reg.user)
    if t.status in (S.RUNNING, S.FINISHED):
        standings.write_standings(t)
    # Told in his notification area (the bell), however late it comes: he may have
    # left the event's page long ago.
    notices.notify(
        tournament=t,
        user_ids=[reg.user_id],
        kind=Notification.Kind.DISQUALIFIED,
        text=reg.reason,
        url=reverse("tournaments:detail", args=[t.pk]),
    )
    tell_pages(t)


def disqualify_check(*, tournament: Tournament) -> None:
    """Raise the error :func:`registration_disqualify` would give in this tournament (the
    admin asks before it offers the reason form); nothing is written."""
    if tournament.status == S.CANCELLED:
        raise errors.WrongState(_("Nobody can be disqualified from a cancelled tournament."))


@transaction.atomic
def round_reseat(*, round: Round, now: datetime | None = None) -> Round:
    """Seat a round again before it starts (with a new draw for equal choices)."""
    t = locked_tournament(round.tournament_id)
    rnd = Round.objects.select_for_update().get(pk=round.pk)
    if rnd.status != Round.Status.SEATED or rnd.assignments.exclude(table=None).exists():
        raise errors.WrongState(_("Only a round whose tables have not opened can be reseated."))
    number = rnd.number
    rnd.delete()
    t.seed += 1
    t.save(update_fields=["seed"])
    new = seating.seat_round(t, number, current_time(now))
    tell_pages(t)
    return new


@transaction.atomic
def assignment_amend(
    *, assignment: Assignment, places: Sequence[int], by: User | None = None, reason: str = ""
) -> Assignment:
    """Correct a finished table's places (by seat); the standings and the ratings follow."""
    t = locked_tournament(assignment.round.tournament_id)
    a = Assignment.objects.select_for_update().get(pk=assignment.pk)
    assignment_amend_check(assignment=a, places=places)
    seats = list(a.seats.order_by("number"))
    for seat, place in zip(seats, places):
        seat.place = place
        seat.points = t.points_for(place)
        seat.save(update_fields=["place", "points"])
    a.amended = True
    a.amend_reason = (reason or "").strip()[:200]
    a.save(update_fields=["amended", "amend_reason"])
    result = MatchResult.objects.filter(table=a.table).first() if a.table_id else None
    if result is not None:
        live.ratings_amend(result=result, placements=list(places), by=by, reason=reason)
    standings.write_standings(t)
    # Every person at the table learns it in his notification area, with the reason.
    notices.notify(
        tournament=t,
        user_ids=[s.user_id for s in seats if s.user_id is not None],
        kind=Notification.Kind.AMENDED,
        text=a.amend_reason,
        url=live.table_url(a.table_id)
        if a.table_id
        else reverse("tournaments:detail", args=[t.pk]),
    )
    tell_pages(t)
    return a


def assignment_amend_check(*, assignment: Assignment, places: Sequence[int]) -> None:
    """Raise the error :func:`assignment_amend` would give for these places (a form shows
    it before anything is saved); nothing is written."""
    k = assignment.seats.count()
    if assignment.status != Assignment.Status.FINISHED:
        raise errors.WrongState(_("Only a finished table's result can be amended."))
    if len(places) != k or any(not 1 <= p <= k for p in places) or 1 not in places:
        raise errors.Invalid(_("Give each seat a place from 1 to %(k)s, one of them 1.") % {"k": k})
