"""The engine state of every live table in this process, kept in step with the log.

The action log in the database is the truth. Rebuilding a match from it costs time
that grows with the match, so each process keeps the rebuilt :class:`TableState` and
checks it against the table's version: when another process (an ASGI worker, a Celery
worker) has moved the table on, only the missing log rows are applied ("catch-up").
So the cost of one action does not grow with the length of the match.

Callers hold ``state.lock`` while they read or change a state. An action is applied to a
state in two ways (``games.services.actions``): under the table's row lock
(``_submit``), or on the optimistic path without it (``_submit_optimistic``), where one
statement writes the action only if the table's version and seats are still the ones the
state was built at; a state is also caught up without the row lock (:func:`catch_up`).
The database serialises the writes either way. A failure after an action was applied in
memory but before the commit evicts the entry (:func:`forget`), and a caller holding a
dropped state sees it is no longer ``valid``.

This package holds the per-process cache; its parts are
``sheet`` (the score sheet), ``events`` (engine events as JSON) and ``sql`` (the log rows
read in plain SQL, and prepared statements). What callers use is re-exported here.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from games.engine import EngineError, Match, Options, action_from_dict
from games.engine.events import DealScored, DeclarerKnown, Event
from games.engine.fair import deal_from_seeds, duplicate_deal
from games.engine.record import dealt_cards
from games.errors import StaleVersion
from games.models import Dealing, MatchResult, Table
from games.state.events import event_to_dict
from games.state.sheet import SHEET_NOTES, sheet_row
from games.state.sql import execute_prepared, log_rows

__all__ = [
    "CACHE_SIZE",
    "SHEET_NOTES",
    "TableState",
    "acquire",
    "cached",
    "catch_up",
    "clear",
    "ended",
    "event_to_dict",
    "execute_prepared",
    "forget",
    "locked",
    "sheet_row",
]


CACHE_SIZE = 2000  # tables per process; an evicted table is rebuilt from the log


@dataclass(eq=False)
class TableState:
    table_id: int
    version: int
    match: Match
    dealing: int  # the dealing in progress (or the last one, after the match)
    client_ids: set[tuple[int, str]] = field(default_factory=set)
    sheet: list[dict[str, Any]] = field(default_factory=list)
    bid: int | None = None  # the winning bid of the deal in progress (for the sheet)
    pending: list[dict[str, Any]] = field(default_factory=list)  # this deal's sheet notes
    seats: list[Any] | None = None  # the table's Seat rows at ``seats_version``
    seats_version: int = -1
    next_dealing: dict[str, Any] | None = None  # the published commitment not dealt yet
    # The table row as the last action through this process committed it (its version,
    # seats_version and status are checked again by the statement that writes the next
    # action: games.services.actions._submit_optimistic).
    table: Table | None = None
    lock: threading.RLock = field(default_factory=threading.RLock)
    # False once dropped from the cache (:func:`forget`): an action may have been applied
    # to it that was never committed. Check it after taking the lock.
    valid: bool = True

    # -- moving it forward (callers hold the lock) ------------------------------------

    def apply(self, seat: int, action: Any) -> list[Event]:
        """Apply an engine action; raises the engine's errors and then changes nothing."""
        events = list(self.match.apply(action, seat=seat))
        self.note(events)
        return events

    def start_dealing(self, dealing: Dealing) -> list[Event]:
        """Deal the next deal's cards from the dealing's seeds (docs/fair-dealing.md)."""
        match = self.match
        if dealing.from_dealer:  # a duplicate round's dealing (docs/fair-dealing.md)
            hands, talons = duplicate_deal(
                bytes.fromhex(dealing.server_seed), match.players, match.dealer
            )
        else:
            hands, talons = deal_from_seeds(
                bytes.fromhex(dealing.server_seed),
                {int(seat): seed for seat, seed in dealing.client_seeds.items()},
                match.players,
                match.dealer,
            )
        events = match.start_deal(hands, talons)
        self.dealing = dealing.number
        self.note(events)
        return events

    def note(self, events: list[Event]) -> None:
        """Keep the score sheet: one row per completed deal (redeals included)."""
        for event in events:
            if isinstance(event, DeclarerKnown):
                self.bid = event.bid
            elif isinstance(event, DealScored):
                self.pending = [event_to_dict(event)]
            elif self.pending and type(event).__name__ in SHEET_NOTES:
                self.pending.append(event_to_dict(event))
        results = self.match.results
        if len(results) > len(self.sheet):
            self.sheet.append(sheet_row(len(self.sheet), results[-1], self.bid, self.pending))
            self.bid = None
            self.pending = []


# -- the per-process cache ----------------------------------------------------------

_cache: OrderedDict[int, TableState] = OrderedDict()
_cache_lock = threading.Lock()
# Tables whose match this process has seen end (the last few thousand; ids are never
# reused). A state built from a table row read just before the match ended elsewhere,
# and stored after the end's update passed this process, would otherwise be kept for
# good: nothing else would ever drop it (the soak, docs/benchmarks.md section 5).
_ended: OrderedDict[int, None] = OrderedDict()
ENDED_REMEMBERED = 4 * CACHE_SIZE


def _entry(table_id: int) -> TableState | None:
    with _cache_lock:
        state = _cache.get(table_id)
        if state is not None:
            _cache.move_to_end(table_id)
        return state


def _store(state: TableState) -> TableState:
    """Keep ``state`` for the next callers, unless another thread kept one first (that
    one is returned) or the table's match has been seen ending (``state`` is returned,
    kept by nobody)."""
    with _cache_lock:
        existing = _cache.get(state.table_id)
        if existing is not None:
            return existing
        if state.table_id in _ended:
            return state
        _cache[state.table_id] = state
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
        return state


def cached(table_id: int) -> TableState | None:
    """The state kept for a table, if this process has one (nothing is read or built)."""
    return _entry(table_id)


def forget(table_id: int) -> None:
    """Drop the table's state: the next caller rebuilds it from the log. A caller that
    already holds a reference (waiting for its lock) sees it is ``valid`` no more."""
    with _cache_lock:
        state = _cache.pop(table_id, None)
    if state is not None:
        state.valid = False


def ended(table_id: int) -> None:
    """The table's match ended: drop its state and never keep one again."""
    with _cache_lock:
        _ended[table_id] = None
        while len(_ended) > ENDED_REMEMBERED:
            _ended.popitem(last=False)
    forget(table_id)


def clear() -> None:
    with _cache_lock:
        _cache.clear()
        _ended.clear()


def acquire(table: Table) -> TableState:
    """The state of a started table at ``table.version``, locked for the caller
    (release with ``state.lock.release()``). Use :func:`locked` as a context manager.

    Only playing tables are kept: the state of a finished or abandoned table is built
    for this caller alone, and what was kept of it while it was played is dropped, so
    that a server's memory does not grow with every match that ends."""
    if table.status != Table.Status.PLAYING:
        # Only forgotten: under the row lock this can be a finish not yet committed.
        forget(table.pk)
        finished = _build(table)
        finished.lock.acquire()
        return finished
    while True:
        state = _entry(table.pk)
        if state is None:
            state = _store(_build(table))
        state.lock.acquire()
        if state.valid:
            break
        state.lock.release()  # dropped while this caller waited for it: take the new one
    if state.version > table.version:
        # The caller read its table row before another commit that this process has
        # already applied (only a reader without the row lock can see this).
        state.lock.release()
        raise StaleVersion()
    try:
        if state.version < table.version:
            _catch_up(state, table.version)
    except BaseException:
        state.lock.release()
        forget(table.pk)
        raise
    return state


def follow(table_id: int, change: dict[str, Any]) -> None:
    """A table's update on its way through this process to its sockets
    (``games.realtime``): keep the state kept here in step with it, so that the next
    action served here needs no catch-up read of the log. ``change`` is what the
    committing process says the update changed: ``{"version", "seat", "action",
    "client_id"}`` for an action that changed nothing but the match (no seat changed),
    with ``"deal"`` (the next dealing's number and seeds) when the action ended a deal
    and the next was dealt, ``{"version", "ended": True}`` when the match ended (the
    state is dropped). Anything else, a version this state is not one short of, or a
    state in use by another thread is left alone: the log stays the truth, and the next
    caller catches up from it. Called on the event loop's thread: it never waits for a
    lock and never reads the database.

    The next deal comes with the update that ends a deal so that a process whose
    players' tables are spread over several processes deals it as the committing one
    did: without it, every other process read the log and the dealings once a deal to
    catch up (docs/benchmarks.md section 4)."""
    if change.get("ended"):
        ended(table_id)
        return
    with _cache_lock:
        state = _cache.get(table_id)
    if state is None or "action" not in change or not state.lock.acquire(blocking=False):
        return
    try:
        version = change["version"]
        if not state.valid or state.version != version - 1:
            return
        seat = change["seat"]
        try:
            state.apply(seat, action_from_dict(change["action"]))
        except EngineError:
            forget(table_id)  # it did not apply here as it did there: rebuild from the log
            return
        if state.match.over:
            forget(table_id)  # not an action the committing process calls plain
            return
        if state.match.awaiting_deal:
            deal = change.get("deal")
            if deal is None or deal["number"] != state.dealing + 1:
                forget(table_id)  # no next deal to deal here: rebuild from the log
                return
            state.start_dealing(
                Dealing(
                    table_id=table_id,
                    number=deal["number"],
                    server_seed=deal["server_seed"],
                    client_seeds=deal["client_seeds"],
                    from_dealer=deal.get("from_dealer", False),
                )
            )
        state.version = version
        if change.get("client_id"):
            state.client_ids.add((seat, change["client_id"]))
        if state.table is not None:
            state.table.version = version
    finally:
        state.lock.release()


class locked:
    """``with locked(table) as state:`` — the table's state at its row's version."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def __enter__(self) -> TableState:
        self.state = acquire(self.table)
        return self.state

    def __exit__(self, *exc: object) -> None:
        self.state.lock.release()


def _build(table: Table) -> TableState:
    options = Options.from_dict(table.options)
    assert table.first_dealer is not None, "the table has not started"
    match = Match.empty(options, first_dealer=table.first_dealer)
    state = TableState(table_id=table.pk, version=0, match=match, dealing=-1)
    if table.log_archived_at is not None:
        _replay_record(state, table)
        return state
    first = Dealing.objects.get(table_id=table.pk, number=0)
    state.start_dealing(first)
    _catch_up(state, table.version)
    return state


def _replay_record(state: TableState, table: Table) -> None:
    """A finished table whose log rows the retention task deleted (games/retention.py):
    its state from the result's record, which holds every deal's cards and actions."""
    record = MatchResult.objects.values_list("record", flat=True).get(table_id=table.pk)
    players = state.match.players
    for number, deal in enumerate(record["deals"]):
        hands, talons = dealt_cards(deal, players, number)
        state.dealing = number
        state.note(state.match.start_deal(hands, talons))
        for item in deal.get("actions", []):
            state.apply(item["seat"], action_from_dict(item))
            state.version += 1
    if state.version != table.version:
        raise RuntimeError(
            f"table {table.pk}: the record holds {state.version} of {table.version} actions"
        )


def catch_up(state: TableState, version: int) -> bool:
    """Bring ``state`` (locked by the caller) to ``version`` from the log without the
    table's row lock. False, and nothing changed, when the log does not reach ``version``."""
    return _catch_up(state, version, strict=False)


def _catch_up(state: TableState, version: int, *, strict: bool = True) -> bool:
    """Apply the log rows after ``state.version`` up to ``version``, dealing each new
    deal from its dealing's seeds."""
    if version <= state.version:
        return True
    rows = log_rows(state.table_id, state.version, version)
    if len(rows) != version - state.version:
        if not strict:
            return False
        raise RuntimeError(f"table {state.table_id}: the log has a gap before version {version}")
    dealings: dict[int, Dealing] = {}
    for n, (row_version, seat, action, client_id) in enumerate(rows, 1):
        state.apply(seat, action_from_dict(action))
        state.version = row_version
        if client_id:
            state.client_ids.add((seat, client_id))
        if state.match.awaiting_deal:
            if not dealings:
                dealings = {
                    d.number: d
                    for d in Dealing.objects.filter(
                        table_id=state.table_id, number__gt=state.dealing
                    )
                }
            upcoming = dealings[state.dealing + 1]
            if n == len(rows) and upcoming.dealt_at is None:
                break  # the match was cut at this deal's end: the next was never dealt
            state.start_dealing(upcoming)
    if state.table is not None:
        state.table.version = state.version
    return True
