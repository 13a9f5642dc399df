"""The players' actions (register, withdraw, check in) and the organiser's walk-ins."""

from __future__ import annotations

import logging
from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.types import User
from tournaments import errors, live
from tournaments.models import (
    Registration,
    Tournament,
)
from tournaments.services import standings
from tournaments.services.common import R, S, current_time, locked_tournament, tell_pages

log = logging.getLogger(__name__)


def _registration_open(t: Tournament, now: datetime) -> bool:
    if t.status in Tournament.ENTERABLE:
        return now < t.closes_at
    # An arena takes late entries while it runs (until it ends).
    return t.status == S.RUNNING and t.format == Tournament.Format.ARENA and now < t.arena_ends_at


@transaction.atomic
def registration_create(
    *, tournament: Tournament | int, user: User, now: datetime | None = None
) -> Registration:
    """Register (or register again after withdrawing). Checks the window, the entry
    conditions and the room left."""
    t = locked_tournament(tournament)
    now = current_time(now)
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
        standings.write_standings(t)
    tell_pages(t)
    return reg


@transaction.atomic
def registration_add_walk_in(
    *, tournament: Tournament | int, user: User, check_in: bool = True, now: datetime | None = None
) -> Registration:
    """The organiser enters a player (a walk-in), also after registration closed or
    check-in opened: checked in at once when check-in is open, the event is running or
    ``check_in`` asks it (else registered). A running Swiss seats him from its next
    round; a running arena at once. The entry conditions are the organiser's call; a
    full event stays full (raise its maximum first)."""
    t = locked_tournament(tournament)
    now = current_time(now)
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
        standings.write_standings(t)
    tell_pages(t)
    return reg


@transaction.atomic
def registration_admin_check_in(
    *, registration: Registration, now: datetime | None = None
) -> Registration:
    """The organiser checks a registered player in (before or during check-in, or into
    a running Swiss or arena: from its next round)."""
    t = locked_tournament(registration.tournament_id)
    reg = Registration.objects.select_for_update().get(pk=registration.pk)
    if reg.status == R.CHECKED_IN:
        return reg
    if reg.status != R.REGISTERED:
        raise errors.NotRegistered()
    late = t.status == S.RUNNING and t.format != Tournament.Format.KNOCKOUT
    if t.status not in (S.SCHEDULED, *Tournament.ENTERABLE) and not late:
        raise errors.CheckInClosed()
    reg.status = R.CHECKED_IN
    reg.checked_in_at = max(current_time(now), reg.registered_at)
    reg.save(update_fields=["status", "checked_in_at"])
    if t.status == S.RUNNING:
        standings.write_standings(t)
    tell_pages(t)
    return reg


def _entry(t: Tournament, user: User) -> Registration:
    """The user's registration, locked, if he is entered (registered or checked in)."""
    reg = Registration.objects.select_for_update().filter(tournament=t, user=user).first()
    if reg is None or reg.status not in (R.REGISTERED, R.CHECKED_IN):
        raise errors.NotRegistered()
    return reg


@transaction.atomic
def registration_withdraw(
    *, tournament: Tournament | int, user: User, now: datetime | None = None
) -> Registration:
    """Leave the event: before it starts, or during it (not seated again; a table in
    play is played to the end — resign there to leave it)."""
    t = locked_tournament(tournament)
    if t.status in (S.FINISHED, S.CANCELLED):
        raise errors.WrongState()
    reg = _entry(t, user)
    reg.status = R.WITHDRAWN
    reg.left_at = current_time(now)
    reg.save(update_fields=["status", "left_at"])
    tell_pages(t)
    return reg


@transaction.atomic
def registration_check_in(
    *, tournament: Tournament | int, user: User, now: datetime | None = None
) -> Registration:
    t = locked_tournament(tournament)
    now = current_time(now)
    reg = _entry(t, user)
    if reg.status == R.CHECKED_IN:
        return reg
    if t.status != S.CHECK_IN:
        raise errors.CheckInClosed()
    reg.status = R.CHECKED_IN
    reg.checked_in_at = now
    reg.save(update_fields=["status", "checked_in_at"])
    tell_pages(t)
    return reg
