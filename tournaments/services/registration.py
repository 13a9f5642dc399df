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
from tournaments.services.common import current_time, tell_pages, tournament_lock

log = logging.getLogger(__name__)


def _registration_open(tournament: Tournament, now: datetime) -> bool:
    if tournament.status in Tournament.ENTERABLE:
        return now < tournament.closes_at
    # An arena takes late entries while it runs (until it ends).
    return (
        tournament.status == Tournament.Status.RUNNING
        and tournament.format == Tournament.Format.ARENA
        and now < tournament.arena_ends_at
    )


@transaction.atomic
def registration_create(
    *, tournament: Tournament | int, user: User, now: datetime | None = None
) -> Registration:
    """Register (or register again after withdrawing). Checks the window, the entry
    conditions and the room left."""
    tournament = tournament_lock(tournament)
    now = current_time(now)
    if not _registration_open(tournament, now):
        raise errors.RegistrationClosed()
    reg = Registration.objects.select_for_update().filter(tournament=tournament, user=user).first()
    if reg is not None and reg.status not in (Registration.Status.WITHDRAWN,):
        if reg.status == Registration.Status.DISQUALIFIED:
            raise errors.NotEligible(_("You were disqualified from this tournament."))
        raise errors.AlreadyRegistered()
    rating, matches = live.player_rating(user=user, players=tournament.players_per_table)
    if tournament.min_rating is not None and rating < tournament.min_rating:
        raise errors.NotEligible(
            _("A rating of at least %(min)s is needed; yours is %(yours)s.")
            % {"min": tournament.min_rating, "yours": round(rating)}
        )
    if matches < tournament.min_rated_matches:
        raise errors.NotEligible(
            _("At least %(min)s rated matches are needed; you have %(yours)s.")
            % {"min": tournament.min_rated_matches, "yours": matches}
        )
    entered = tournament.registrations.filter(
        status__in=(Registration.Status.REGISTERED, Registration.Status.CHECKED_IN)
    ).count()
    if tournament.max_players is not None and entered >= tournament.max_players:
        raise errors.Full()
    # During check-in (or a running arena) registering checks in at once.
    status = (
        Registration.Status.CHECKED_IN
        if tournament.status in (Tournament.Status.CHECK_IN, Tournament.Status.RUNNING)
        else Registration.Status.REGISTERED
    )
    checked_in_at = now if status == Registration.Status.CHECKED_IN else None
    if reg is None:
        reg = Registration.objects.create(
            tournament=tournament,
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
    if tournament.status == Tournament.Status.RUNNING:
        standings.standings_write(tournament=tournament)
    tell_pages(tournament)
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
    tournament = tournament_lock(tournament)
    now = current_time(now)
    late = (
        tournament.status == Tournament.Status.RUNNING
        and tournament.format != Tournament.Format.KNOCKOUT
    )
    if tournament.status not in (Tournament.Status.SCHEDULED, *Tournament.ENTERABLE) and not late:
        raise errors.WrongState(
            _("Players can be added until the start (a Swiss or an arena: until its end).")
        )
    reg = Registration.objects.select_for_update().filter(tournament=tournament, user=user).first()
    if reg is not None and reg.status in (
        Registration.Status.REGISTERED,
        Registration.Status.CHECKED_IN,
    ):
        if check_in and reg.status == Registration.Status.REGISTERED:
            return registration_admin_check_in(registration=reg, now=now)
        raise errors.AlreadyRegistered()
    entered = tournament.registrations.filter(
        status__in=(Registration.Status.REGISTERED, Registration.Status.CHECKED_IN)
    ).count()
    if tournament.max_players is not None and entered >= tournament.max_players:
        raise errors.Full()
    rating, _matches = live.player_rating(user=user, players=tournament.players_per_table)
    checked = check_in or tournament.status in (
        Tournament.Status.CHECK_IN,
        Tournament.Status.RUNNING,
    )
    status = Registration.Status.CHECKED_IN if checked else Registration.Status.REGISTERED
    if reg is None:
        reg = Registration(tournament=tournament, user=user)
    reg.status, reg.rating, reg.registered_at = status, rating, now
    reg.checked_in_at = now if checked else None
    reg.left_at, reg.reason = None, ""
    reg.save()
    if tournament.status == Tournament.Status.RUNNING:
        standings.standings_write(tournament=tournament)
    tell_pages(tournament)
    return reg


@transaction.atomic
def registration_admin_check_in(
    *, registration: Registration, now: datetime | None = None
) -> Registration:
    """The organiser checks a registered player in (before or during check-in, or into
    a running Swiss or arena: from its next round)."""
    tournament = tournament_lock(registration.tournament_id)
    reg = Registration.objects.select_for_update().get(pk=registration.pk)
    if reg.status == Registration.Status.CHECKED_IN:
        return reg
    if reg.status != Registration.Status.REGISTERED:
        raise errors.NotRegistered()
    late = (
        tournament.status == Tournament.Status.RUNNING
        and tournament.format != Tournament.Format.KNOCKOUT
    )
    if tournament.status not in (Tournament.Status.SCHEDULED, *Tournament.ENTERABLE) and not late:
        raise errors.CheckInClosed()
    reg.status = Registration.Status.CHECKED_IN
    reg.checked_in_at = max(current_time(now), reg.registered_at)
    reg.save(update_fields=["status", "checked_in_at"])
    if tournament.status == Tournament.Status.RUNNING:
        standings.standings_write(tournament=tournament)
    tell_pages(tournament)
    return reg


def _entry(tournament: Tournament, user: User) -> Registration:
    """The user's registration, locked, if he is entered (registered or checked in)."""
    reg = Registration.objects.select_for_update().filter(tournament=tournament, user=user).first()
    if reg is None or reg.status not in (
        Registration.Status.REGISTERED,
        Registration.Status.CHECKED_IN,
    ):
        raise errors.NotRegistered()
    return reg


@transaction.atomic
def registration_withdraw(
    *, tournament: Tournament | int, user: User, now: datetime | None = None
) -> Registration:
    """Leave the event: before it starts, or during it (not seated again; a table in
    play is played to the end — resign there to leave it)."""
    tournament = tournament_lock(tournament)
    if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        raise errors.WrongState()
    reg = _entry(tournament, user)
    reg.status = Registration.Status.WITHDRAWN
    reg.left_at = current_time(now)
    reg.save(update_fields=["status", "left_at"])
    tell_pages(tournament)
    return reg


@transaction.atomic
def registration_check_in(
    *, tournament: Tournament | int, user: User, now: datetime | None = None
) -> Registration:
    tournament = tournament_lock(tournament)
    now = current_time(now)
    reg = _entry(tournament, user)
    if reg.status == Registration.Status.CHECKED_IN:
        return reg
    if tournament.status != Tournament.Status.CHECK_IN:
        raise errors.CheckInClosed()
    reg.status = Registration.Status.CHECKED_IN
    reg.checked_in_at = now
    reg.save(update_fields=["status", "checked_in_at"])
    tell_pages(tournament)
    return reg
