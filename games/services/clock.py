"""Bots' turns and the move clock: both play through the one action path."""

from __future__ import annotations

import logging
import time
from typing import Protocol

from django.utils import timezone

from games import bot_queue, errors, scheduler
from games import state as table_state
from games.bots import make_bot
from games.engine import Action
from games.models import Table, TableAction
from games.services import actions, turns

log = logging.getLogger(__name__)


class TurnAtOwner(Protocol):
    """Has the table's owner play the move (``games.owner.turn_at_owner``): True when it
    answered (raising the error it answered with), False when the caller writes."""

    def __call__(
        self, *, table_id: int, seat: int, action: Action, expected_version: int, source: str
    ) -> bool: ...


_at_owner: TurnAtOwner | None = None


def turns_at_owner(route: TurnAtOwner | None) -> None:
    """Send the bots' and the clock's moves to their tables' owners (``games.owner``
    registers this when the app is ready; the services do not import it, it imports
    them). None: every move is written by the process that decided it."""
    global _at_owner
    _at_owner = route


def bot_play(*, table_id: int, version: int) -> bool:
    """Play a bot's turn if the table is still at ``version`` and a bot plays the seat
    to act. Idempotent: a stale call does nothing. The bot decides outside the row lock
    (a strong bot thinks for a few hundred milliseconds)."""
    return _play_for_seat(table_id, version, on_clock=False)


def bot_turn_next() -> bool:
    """A token of the bots' fair queue (full stack): play the fairest bot turn that is due
    (:mod:`games.bot_queue`), and charge its owner the time it took. When turns wait but
    none is due yet, the token comes back for the earliest."""
    taken = bot_queue.pop()
    if taken is None:
        return False
    if isinstance(taken, bot_queue.Later):
        scheduler.bot_token_later(min(taken.seconds, bot_queue.RETRY_CAP_SECONDS))
        return False
    started = time.monotonic()
    try:
        return bot_play(table_id=taken.table_id, version=taken.version)
    finally:
        bot_queue.charge(owner=taken.owner, seconds=time.monotonic() - started)


def clock_expire(*, table_id: int, version: int) -> bool:
    """The clock of the seat to act ran out: a bot plays for it (``basic`` for a person,
    marked ``timeout``; a bot seat's own level, when its scheduled turn was lost)."""
    return _play_for_seat(table_id, version, on_clock=True)


def _play_for_seat(table_id: int, version: int, *, on_clock: bool) -> bool:
    table = Table.objects.filter(pk=table_id).first()
    if table is None or table.status != Table.Status.PLAYING or table.version != version:
        return False
    if on_clock and (table.deadline is None or table.deadline > timezone.now()):
        return False
    if on_clock and scheduler.mode() == "celery" and _waits_in_bot_queue(table, version):
        return False
    try:
        with table_state.locked(table) as state:
            seat = state.match.to_act
            if seat is None:
                return False
            seats = turns.table_seats(table, state)
            view = state.match.view(seat)
    except errors.StaleVersion:
        return False
    by_bot = seats[seat].played_by_bot
    if not by_bot and not on_clock:
        return False
    level = seats[seat].bot_level or "basic"
    action = make_bot(level, seed=table_id * 1_000_003 + version).decide(view)
    source = TableAction.Source.BOT if by_bot else TableAction.Source.TIMEOUT
    try:
        if _at_owner is None or not _at_owner(
            table_id=table_id, seat=seat, action=action, expected_version=version, source=source
        ):
            actions.action_submit(
                table_id=table_id,
                seat=seat,
                action=action,
                expected_version=version,
                source=source,
            )
    except (errors.StaleVersion, errors.NotYourTurn, errors.NotPlaying):
        return False
    return True


def _waits_in_bot_queue(table: Table, version: int) -> bool:
    """A bot turn past its grace that still waits in the bots' fair queue is the queue's
    to play (games.bot_queue.rescue): one more token goes out for it, once."""
    owner = bot_queue.owner_of(created_by_id=table.created_by_id, table_id=table.pk)
    waiting, send = bot_queue.rescue(owner=owner, table_id=table.pk, version=version)
    if send:
        scheduler.bot_token_later(0)
    return waiting


def clocks_sweep(limit: int = 500) -> int:
    """Play for every seat whose clock has run out; returns how many were played."""
    due = list(
        Table.objects.filter(status=Table.Status.PLAYING, deadline__lte=timezone.now())
        .order_by("deadline")
        .values_list("pk", "version")[:limit]
    )
    played = 0
    for table_id, version in due:
        try:
            played += clock_expire(table_id=table_id, version=version)
        except Exception:
            log.exception("clock of table %s failed", table_id)
    return played
