"""What the parts of the tournament services share: the constants, the tournament's
row lock, the settings check and the note to its pages after the commit."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from tournaments import errors
from tournaments.models import (
    Tournament,
)
from tournaments.validation import tournament_errors

log = logging.getLogger(__name__)


STOP_GRACE = timedelta(minutes=15)
"""After a time limit, a deal still unfinished this much later is cut short too."""

ARENA_BOT_AFTER = 120.0
"""Arena: seconds a player waits before he is seated with bots."""

CHECK_IN_HORIZON = timedelta(days=1)
"""A tournament in registration is stepped from this long before its start."""

OPEN_BATCH = 50
"""Live tables opened by one step; a step that leaves more asks for another at once."""


def current_time(now: datetime | None) -> datetime:
    return now or timezone.now()


def tournament_lock(tournament: Tournament | int) -> Tournament:
    pk = tournament if isinstance(tournament, int) else tournament.pk
    try:
        return Tournament.objects.select_for_update().get(pk=pk)
    except Tournament.DoesNotExist:
        raise errors.NotFound() from None


def tournament_check(tournament: Tournament) -> None:
    problems = tournament_errors(tournament)
    if problems:
        raise errors.Invalid("; ".join(m for ms in problems.values() for m in ms))


def tell_pages(tournament: Tournament) -> None:
    """Tell the tournament's pages after the commit."""
    from tournaments import realtime

    pk = tournament.pk
    transaction.on_commit(lambda: realtime.tournament_changed(pk))
