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
    current_time,
    tell_pages,
    tournament_check,
    tournament_lock,
)

log = logging.getLogger(__name__)


@transaction.atomic
def tournament_create(*, created_by: User, **fields: Any) -> Tournament:
    """A draft tournament; its settings are checked (``errors.Invalid``)."""
    tournament = Tournament(created_by=created_by, **fields)
    if not tournament.seed:
        tournament.seed = random.SystemRandom().randrange(1, 2**31)
    tournament_check(tournament)
    tournament.save()
    return tournament


@transaction.atomic
def tournament_schedule(*, tournament: Tournament) -> Tournament:
    """Announce a draft: it shows on the site and runs by itself from now on."""
    tournament = tournament_lock(tournament)
    if tournament.status == Tournament.Status.SCHEDULED:
        return tournament
    if tournament.status != Tournament.Status.DRAFT:
        raise errors.WrongState()
    tournament_check(tournament)
    tournament.status = Tournament.Status.SCHEDULED
    tournament.save(update_fields=["status"])
    tell_pages(tournament)
    return tournament


@transaction.atomic
def tournament_open_registration(
    *, tournament: Tournament, now: datetime | None = None, early: bool = False
) -> Tournament:
    """Open registration (the tick, at ``registration_opens_at``; the organiser, early)."""
    tournament = tournament_lock(tournament)
    now = current_time(now)
    if tournament.status in Tournament.ENTERABLE:
        return tournament
    if tournament.status != Tournament.Status.SCHEDULED:
        raise errors.WrongState()
    if early and now < tournament.registration_opens_at:
        tournament.registration_opens_at = now
    tournament.status = Tournament.Status.REGISTRATION
    tournament.save(update_fields=["status", "registration_opens_at"])
    if tournament.format == Tournament.Format.DUPLICATE:
        # Round 1's dealing is published long before anybody is seated (docs/duplicate.md).
        duplicate.duplicate_commit(tournament=tournament, number=1, now=now)
    tell_pages(tournament)
    return tournament


@transaction.atomic
def tournament_close_registration(
    *, tournament: Tournament, now: datetime | None = None
) -> Tournament:
    """Close registration early: nobody else may register; check-in goes on."""
    tournament = tournament_lock(tournament)
    now = current_time(now)
    if tournament.status not in (Tournament.Status.SCHEDULED, *Tournament.ENTERABLE):
        raise errors.WrongState()
    if now < tournament.closes_at:
        tournament.registration_closes_at = max(now, tournament.registration_opens_at)
        tournament.save(update_fields=["registration_closes_at"])
        tell_pages(tournament)
    return tournament


@transaction.atomic
def tournament_open_check_in(*, tournament: Tournament, now: datetime | None = None) -> Tournament:
    tournament = tournament_lock(tournament)
    if tournament.status == Tournament.Status.CHECK_IN:
        return tournament
    if tournament.status != Tournament.Status.REGISTRATION:
        raise errors.WrongState()
    tournament.status = Tournament.Status.CHECK_IN
    tournament.save(update_fields=["status"])
    notices.notifications_create(
        tournament=tournament,
        user_ids=tournament.registrations.filter(status=Registration.Status.REGISTERED).values_list(
            "user_id", flat=True
        ),
        kind=Notification.Kind.CHECK_IN,
        url=reverse("tournaments:detail", args=[tournament.pk]),
    )
    tell_pages(tournament)
    return tournament


@transaction.atomic
def tournament_start(
    *, tournament: Tournament, now: datetime | None = None, early: bool = False
) -> Tournament:
    """Start with the players checked in (everyone registered, without a check-in
    window); the others are dropped as no-shows. Fewer than two: cancelled."""
    tournament = tournament_lock(tournament)
    now = current_time(now)
    if tournament.status == Tournament.Status.RUNNING:
        return tournament
    if tournament.status not in (Tournament.Status.SCHEDULED, *Tournament.ENTERABLE):
        raise errors.WrongState()
    regs = tournament.registrations.filter(
        status__in=(Registration.Status.REGISTERED, Registration.Status.CHECKED_IN)
    )
    if tournament.check_in_minutes:
        regs.filter(status=Registration.Status.REGISTERED).update(
            status=Registration.Status.NO_SHOW
        )
    else:
        regs.filter(status=Registration.Status.REGISTERED).update(
            status=Registration.Status.CHECKED_IN, checked_in_at=now
        )
    field = tournament.registrations.filter(status=Registration.Status.CHECKED_IN).count()
    tournament.started_at = now
    if early and now < tournament.starts_at:
        tournament.starts_at = now
    if field < 2:
        tournament.status = Tournament.Status.CANCELLED
        tournament.cancel_reason = _("Fewer than two players checked in.")
        tournament.finished_at = now
        tournament.save(
            update_fields=["status", "cancel_reason", "started_at", "finished_at", "starts_at"]
        )
        tell_pages(tournament)
        return tournament
    tournament.status = Tournament.Status.RUNNING
    tournament.save(update_fields=["status", "started_at", "starts_at"])
    if tournament.format == Tournament.Format.ARENA:
        Round.objects.create(
            tournament=tournament,
            number=1,
            status=Round.Status.PLAYING,
            starts_at=now,
            ends_at=tournament.arena_ends_at,
        )
    else:
        seating.round_seat(tournament=tournament, number=1, now=now)
    standings.standings_write(tournament=tournament)
    tell_pages(tournament)
    return tournament


@transaction.atomic
def tournament_pause(*, tournament: Tournament, paused: bool = True) -> Tournament:
    """Pause (or resume): nothing new is seated or started; tables in play go on."""
    tournament = tournament_lock(tournament)
    if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        raise errors.WrongState()
    tournament.paused = paused
    tournament.save(update_fields=["paused"])
    tell_pages(tournament)
    return tournament


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
    tournament = tournament_lock(tournament)
    if tournament.status == Tournament.Status.CANCELLED:
        return tournament
    if tournament.status == Tournament.Status.FINISHED:
        raise errors.WrongState()
    for assignment in Assignment.objects.filter(round__tournament=tournament).exclude(
        status=Assignment.Status.FINISHED
    ):
        if assignment.table_id is not None:
            live.table_stop(live.table_lock(assignment.table_id))
    tournament.status = Tournament.Status.CANCELLED
    tournament.cancel_reason = reason[:200]
    tournament.finished_at = current_time(now)
    tournament.save(update_fields=["status", "cancel_reason", "finished_at"])
    notices.notifications_create(
        tournament=tournament,
        user_ids=tournament.registrations.filter(
            status__in=(Registration.Status.REGISTERED, Registration.Status.CHECKED_IN)
        ).values_list("user_id", flat=True),
        kind=Notification.Kind.CANCELLED,
        text=tournament.cancel_reason,
        url=reverse("tournaments:detail", args=[tournament.pk]),
    )
    tell_pages(tournament)
    return tournament


@transaction.atomic
def registration_disqualify(
    *, registration: Registration, reason: str = "", by: User | None = None
) -> None:
    """Out of the event: not seated again, listed last; at a table now, he resigns there.
    After the event finished too: the standings are computed again without his rank (his
    tables' places stay as played: amend a result to change them). Not in a cancelled
    event, which has no standings."""
    tournament = tournament_lock(registration.tournament_id)
    reg = Registration.objects.select_for_update().get(pk=registration.pk)
    if reg.status == Registration.Status.DISQUALIFIED:
        return
    registration_disqualify_check(tournament=tournament)
    reg.status = Registration.Status.DISQUALIFIED
    reg.reason = reason[:200]
    reg.left_at = timezone.now()
    reg.save(update_fields=["status", "reason", "left_at"])
    for assignment in standings.assignments_playing(tournament=tournament, user_id=reg.user_id):
        if assignment.table_id is not None:
            live.player_resign(table_id=assignment.table_id, user=reg.user)
    if tournament.status in (Tournament.Status.RUNNING, Tournament.Status.FINISHED):
        standings.standings_write(tournament=tournament)
    # Told in his notification area (the bell), however late it comes: he may have
    # left the event's page long ago.
    notices.notifications_create(
        tournament=tournament,
        user_ids=[reg.user_id],
        kind=Notification.Kind.DISQUALIFIED,
        text=reg.reason,
        url=reverse("tournaments:detail", args=[tournament.pk]),
    )
    tell_pages(tournament)


def registration_disqualify_check(*, tournament: Tournament) -> None:
    """Raise the error :func:`registration_disqualify` would give in this tournament (the
    admin asks before it offers the reason form); nothing is written."""
    if tournament.status == Tournament.Status.CANCELLED:
        raise errors.WrongState(_("Nobody can be disqualified from a cancelled tournament."))


@transaction.atomic
def registration_reinstate(*, registration: Registration, status: str) -> bool:
    """Undo a disqualification (a fair-play verdict withdrawn): the entry goes back to
    ``status`` (registered or checked in): in an event not over he is seated again from
    the next round, in one finished the standings are computed again with his rank; the
    rounds he missed and a table he resigned stay as they are. ``False`` (nothing
    changed) when the entry is no longer disqualified or the event was cancelled."""
    tournament = tournament_lock(registration.tournament_id)
    reg = Registration.objects.select_for_update().get(pk=registration.pk)
    if (
        reg.status != Registration.Status.DISQUALIFIED
        or status not in (Registration.Status.REGISTERED, Registration.Status.CHECKED_IN)
        or tournament.status == Tournament.Status.CANCELLED
    ):
        return False
    reg.status = status
    reg.reason = ""
    reg.left_at = None
    reg.save(update_fields=["status", "reason", "left_at"])
    if tournament.status in (Tournament.Status.RUNNING, Tournament.Status.FINISHED):
        standings.standings_write(tournament=tournament)
    tell_pages(tournament)
    return True


@transaction.atomic
def round_reseat(*, round: Round, now: datetime | None = None) -> Round:
    """Seat a round again before it starts (with a new draw for equal choices)."""
    tournament = tournament_lock(round.tournament_id)
    round_ = Round.objects.select_for_update().get(pk=round.pk)
    if round_.status != Round.Status.SEATED or round_.assignments.exclude(table=None).exists():
        raise errors.WrongState(_("Only a round whose tables have not opened can be reseated."))
    number = round_.number
    round_.delete()
    tournament.seed += 1
    tournament.save(update_fields=["seed"])
    new = seating.round_seat(tournament=tournament, number=number, now=current_time(now))
    tell_pages(tournament)
    return new


@transaction.atomic
def assignment_amend(
    *, assignment: Assignment, places: Sequence[int], by: User | None = None, reason: str = ""
) -> Assignment:
    """Correct a finished table's places (by seat); the standings and the ratings follow."""
    tournament = tournament_lock(assignment.round.tournament_id)
    assignment = Assignment.objects.select_for_update().get(pk=assignment.pk)
    assignment_amend_check(assignment=assignment, places=places)
    seats = list(assignment.seats.order_by("number"))
    for seat, place in zip(seats, places):
        seat.place = place
        seat.points = tournament.points_for(place)
        seat.save(update_fields=["place", "points"])
    assignment.amended = True
    assignment.amend_reason = (reason or "").strip()[:200]
    assignment.save(update_fields=["amended", "amend_reason"])
    result = (
        MatchResult.objects.filter(table=assignment.table).first() if assignment.table_id else None
    )
    if result is not None:
        live.ratings_amend(result=result, placements=list(places), by=by, reason=reason)
    standings.standings_write(tournament=tournament)
    # Every person at the table learns it in his notification area, with the reason.
    notices.notifications_create(
        tournament=tournament,
        user_ids=[s.user_id for s in seats if s.user_id is not None],
        kind=Notification.Kind.AMENDED,
        text=assignment.amend_reason,
        url=live.table_url(assignment.table_id)
        if assignment.table_id
        else reverse("tournaments:detail", args=[tournament.pk]),
    )
    tell_pages(tournament)
    return assignment


def assignment_amend_check(*, assignment: Assignment, places: Sequence[int]) -> None:
    """Raise the error :func:`assignment_amend` would give for these places (a form shows
    it before anything is saved); nothing is written."""
    k = assignment.seats.count()
    if assignment.status != Assignment.Status.FINISHED:
        raise errors.WrongState(_("Only a finished table's result can be amended."))
    if len(places) != k or any(not 1 <= p <= k for p in places) or 1 not in places:
        raise errors.Invalid(_("Give each seat a place from 1 to %(k)s, one of them 1.") % {"k": k})
