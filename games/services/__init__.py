"""Everything that changes a live table, in parts: ``tables`` (a table's life),
``actions`` (the one path), ``log_sql`` (its hand-written SQL), ``broadcast`` (views out,
next turn scheduled), ``clock`` (bots and the move clock), ``turns`` (the seats and the
clock of the seat to act, under all of them), ``common``; everything public
is re-exported here, so callers write ``services.action_submit(…)``. The one path that moves a game forward is
:func:`action_submit`: the engine decides, the log grows by one row and the version by
one, atomically; then the views go out (after the commit) and whatever comes next is
scheduled (a bot's turn, the clock). People, bots and the clock all act through it.
Every rejection raises a :class:`games.errors.TableError` and changes nothing.

Two ways through it, with the same outcome:

- the common case on PostgreSQL (:func:`_submit_optimistic`): the process keeps the
  table's engine state (``games.state``), the engine applies the action there, and one
  statement appends the log row and bumps the version *if the table is still at the
  version the player saw*, with the same seats, playing, and its row not locked;
- everything else (:func:`_submit`): ``SELECT … FOR UPDATE`` of the table row, the state
  caught up to it, the engine decides, the writes, commit. A deal's end, the match's end,
  a seat to update, a rejection to explain and every conflict go this way.
"""

from __future__ import annotations

from games.services.actions import action_submit, placements
from games.services.clock import bot_play, bot_turn_next, clock_expire, clocks_sweep
from games.services.common import Applied
from games.services.tables import (
    dealing_add_seed,
    seat_fill_with_bot,
    seat_return,
    table_abandon,
    table_create,
    table_dealings_reveal,
    table_finish_after_deal,
    table_finish_now,
    table_join,
    table_leave,
    table_open,
    table_play_bots,
    table_rematch,
    table_resign,
    table_start,
)
from games.table_rules import MOVE_SECONDS_RANGE, PRESET_NAMES, TARGET_RANGE, table_options

__all__ = [
    "MOVE_SECONDS_RANGE",
    "PRESET_NAMES",
    "TARGET_RANGE",
    "Applied",
    "action_submit",
    "bot_play",
    "bot_turn_next",
    "clock_expire",
    "clocks_sweep",
    "dealing_add_seed",
    "placements",
    "seat_fill_with_bot",
    "seat_return",
    "table_abandon",
    "table_create",
    "table_dealings_reveal",
    "table_finish_after_deal",
    "table_finish_now",
    "table_join",
    "table_leave",
    "table_open",
    "table_options",
    "table_play_bots",
    "table_rematch",
    "table_resign",
    "table_start",
]
