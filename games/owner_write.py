"""The owner's own write of a plain action (``games.owner``), on its event loop.

A table's owner keeps its state and applies its commands in turn, so the common action
(the player to act plays, nothing but the match changes, no deal ends) needs no thread:
the checks, the engine and the views are the optimistic step of the one path
(``games.services.actions``: :func:`~games.services.actions.plain_seat`,
:func:`~games.services.actions.plain_row`, :func:`~games.services.actions.plain_committed`)
and the row goes in with the same statement and the same fence
(``games.services.log_sql.LOG_APPEND_SQL``: only if the table is still at the version
before, with the same seats, playing), sent on a connection of the owner's own
(async, autocommit, the statement prepared) instead of Django's in a worker thread.
Anything else (a deal or the match ending, a seat to update, a state not at the
expected version, an action the engine refuses) returns None and goes the whole way
through :func:`games.services.action_submit` in the thread pool, which gives the reason.

Nothing is told before the row is committed: the views are handed to the sender after
the statement returns (``after_commit`` runs at once), to this process's sockets first
(``games.realtime.delivered_here``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import psycopg
from django.db import connections
from django.utils import timezone

from core.sockets import in_pool
from games import state as table_state
from games.engine import EngineError, action_from_dict
from games.models import Table, TableAction
from games.services import actions, log_sql

log = logging.getLogger(__name__)

CONNECTIONS = 4  # a process's connections for its owned tables' writes

_deal_end_commit = in_pool(actions.commit_at_deal_end)


class Writer:
    """The owner's connections for its writes (opened on first use, on the loop that
    uses them, autocommit). psycopg sends one statement at a time on a connection, so
    a table's writes go to one of ``CONNECTIONS`` by its id: the tables' round trips
    overlap, and each table's stay in its commands' order (one connection took every
    write of a process in turn, and 300 tables on one process waited for it)."""

    def __init__(self) -> None:
        self.connections: list[psycopg.AsyncConnection[Any] | None] = [None] * CONNECTIONS
        self.connecting = [asyncio.Lock() for _ in range(CONNECTIONS)]

    @property
    def connection(self) -> psycopg.AsyncConnection[Any] | None:
        """The first connection opened (None: this process has written nothing itself)."""
        return next((c for c in self.connections if c is not None), None)

    async def _connection(self, table_id: int) -> psycopg.AsyncConnection[Any]:
        slot = table_id % CONNECTIONS
        connection = self.connections[slot]
        if connection is not None and not connection.closed:
            return connection
        # One connect at a time per slot: every table's first action comes at once
        # when the players start, and each opening its own connection ran PostgreSQL
        # out of connections (the others fell back to the whole path for seconds).
        async with self.connecting[slot]:
            connection = self.connections[slot]
            if connection is None or connection.closed:
                params = connections["default"].get_connection_params()
                params.pop("cursor_factory", None)  # Django's is a synchronous cursor
                connection = await psycopg.AsyncConnection.connect(**params, autocommit=True)
                self.connections[slot] = connection
            return connection

    def close(self, table_id: int | None = None) -> None:
        """Drop the connections (one table's, or all); their sockets close with them,
        nothing waits."""
        slots = range(CONNECTIONS) if table_id is None else [table_id % CONNECTIONS]
        for slot in slots:
            connection, self.connections[slot] = self.connections[slot], None
            if connection is not None:
                with contextlib.suppress(Exception):
                    connection.pgconn.finish()

    async def write(
        self, table_id: int, user_id: int | None, command: dict[str, Any]
    ) -> dict[str, Any] | None:
        """Write the action ``command`` carries at an owned table, when it is a plain one
        (see the module); its answer, or None: nothing was written, and the state kept
        here is as it was or dropped (the whole path rebuilds it)."""
        state = table_state.cached(table_id)
        seat = command.get("seat")
        if seat is not None:
            who = actions.Actor(seat=seat, user_id=None)  # a bot's or the clock's move
        elif user_id is not None:
            who = actions.Actor(seat=None, user_id=user_id)
        else:
            return None
        if state is None:
            return None
        # The state's lock is a thread lock: the loop never waits for it (a worker thread
        # reading the state for a socket holds it for a moment).
        if not state.lock.acquire(blocking=False):
            return None
        try:
            return await self._write_locked(state, who, command)
        finally:
            state.lock.release()

    async def _write_locked(
        self, state: table_state.TableState, who: actions.Actor, command: dict[str, Any]
    ) -> dict[str, Any] | None:
        table = state.table
        source = command.get("source", TableAction.Source.HUMAN)
        client_id = command.get("client_id")
        if (
            not state.valid
            or table is None
            or table.status != Table.Status.PLAYING
            or state.version != command["version"]
        ):
            return None
        seat = actions.plain_seat(state, who, source, client_id)
        if seat is None:
            return None
        sheet_before = len(state.sheet)
        try:
            action = action_from_dict(command["action"])
            events = state.apply(seat, action)
        except (EngineError, KeyError, TypeError, ValueError):
            return None  # nothing changed; the whole path gives the reason
        if state.match.awaiting_deal or state.match.over:
            # The next deal or the result are written under the row lock, in a worker
            # thread, with this state (its lock stays with the loop's thread meanwhile).
            try:
                applied = await _deal_end_commit(
                    table.pk, state, seat, action, events, source, client_id, sheet_before
                )
            except BaseException:
                table_state.forget(table.pk)
                raise
            if applied is None:
                table_state.forget(table.pk)
                return None
            return {"version": applied.version, "duplicate": False}
        row, deadline = actions.plain_row(
            table, state, seat, action, source, client_id, timezone.now()
        )
        params = log_sql.log_append_params(
            row, seats_version=state.seats_version, deadline=deadline
        )
        try:
            connection = await self._connection(table.pk)
            cursor = await connection.execute(log_sql.LOG_APPEND_SQL, params, prepare=True)
            written = cursor.rowcount == 1
        except psycopg.Error:
            # Not known to be written: the log says. The state is rebuilt from it and
            # the command goes the whole way (its version check answers).
            log.warning("the owner's write of table %s failed", table.pk, exc_info=True)
            table_state.forget(table.pk)
            self.close(table.pk)
            return None
        except BaseException:
            table_state.forget(table.pk)
            raise
        if not written:
            # Another writer moved the table on: this state has an action too many.
            table_state.forget(table.pk)
            return None
        applied = actions.plain_committed(
            table, state, row, deadline, events, after_commit=lambda send: send()
        )
        return {"version": applied.version, "duplicate": False}
