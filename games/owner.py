"""One owner per live table (setting ``GAMES_TABLE_OWNER``): the process that holds a
table's PostgreSQL advisory lock applies its commands (a player's action, his seed, his
return) one after another, and every other process sends it the commands of the table.

* **Ownership** is a session advisory lock ``pg_try_advisory_lock(LOCK_NAMESPACE,
  table_id)`` held on one connection this process keeps for all the tables it owns
  (never a pooled one: the lock lives as long as that connection). When the connection
  dies (the process, the network, ``pg_terminate_backend``), every lock goes with it, and
  this process drops every table it owned the next time it looks (:meth:`Registry.check`,
  run by the listener every ``GAMES_TABLE_OWNER_CHECK_SECONDS``, and by every ``take``).
  On SQLite (the embedded default: one process) the process always owns, with no lock.
* **Order**: the owner applies a table's commands strictly in turn (one ``asyncio.Lock``
  per table on its event loop), each through the one service write
  (``games.services.action_submit``), so the engine state it keeps is ``games.state``'s.
* **The fence**: the action log's unique (table, version) and the version check of that
  write. A process that lost its lock without knowing (paused, cut off) can never commit
  a second action at a version: its write is refused (``StaleVersion`` for a version it
  believed current), it drops the table and its state, and the command goes once more,
  to the owner as it is now. Nothing is acknowledged before it is committed.
* **Commands from elsewhere**: a socket on a process that does not own the table sends
  ``{"type": "table.command", …}`` over the channel layer to the group
  :func:`owner_group` (only the owner joins it) with a reply channel and a correlation id,
  and waits ``GAMES_TABLE_OWNER_TIMEOUT`` seconds for the answer. With no answer it takes
  ownership itself, or, when another process holds the lock and does not answer, makes
  the write itself (the fence keeps that safe; the owner catches its state up from the
  log when it sees a version it did not write).
* **Bots and the clock**: a worker that never owns (Celery's bot turns, the clock's
  sweep) decides the move and sends it to the owner the same way
  (:func:`turn_at_owner`, for the seat, not for a person); with nobody holding the
  table's lock, or no answer, it writes through the fence itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import psycopg
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connections

from accounts.types import User, Visitor
from core.realtime import (
    between_processes,
    channel_release,
    group_send_counted,
    run_on_process_loop,
)
from core.sockets import ON_SQLITE, in_pool
from games import errors, owner_write, realtime, services
from games import state as table_state
from games.engine import Action, action_from_dict
from games.services.common import user_id_of

log = logging.getLogger(__name__)

# The first key of the games' advisory locks (two int4 keys: this, the table's id).
LOCK_NAMESPACE = 0x7468  # "th"

ELSEWHERE_REMEMBERED = 10_000

COMMAND = "table.command"
REPLY = "table.reply"


def enabled() -> bool:
    return bool(settings.GAMES_TABLE_OWNER)


def owner_group(table_id: int) -> str:
    """The channel-layer group only a table's owner joins."""
    return f"table.{table_id}.owner"


@dataclass
class Owned:
    """A table this process owns: its commands' turn (``lock``), the version of the
    last action this process wrote there (None: none yet), and until when another
    process said it has sockets at the table (``watched_until``, ``time.monotonic``)."""

    table_id: int
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    version: int | None = None
    taken_at: float = field(default_factory=time.monotonic)
    watched_until: float = 0.0

    def watched(self) -> bool:
        """Whether the table's updates must be published for other processes too: one
        said it has sockets here lately, or this process took the table so lately that
        a process watching it under its last owner may not have said so yet."""
        now = time.monotonic()
        return (
            now < self.watched_until
            or now < self.taken_at + settings.GAMES_TABLE_OWNER_WATCH_SECONDS
        )


# -- the commands ---------------------------------------------------------------------------


def _user(user_id: int) -> Visitor:
    """The person a command from another process names: only his id is read by the
    services it runs (his seat is looked up by it), and the socket that sent it
    authenticated him and checked his credential, so nothing is read here."""
    return User(pk=user_id)


def _run(command: dict[str, Any], user: Visitor | None) -> dict[str, Any]:
    """Carry out one command (in a worker thread): its answer, or its error's code."""
    table_id = command["table_id"]
    try:
        kind = command["command"]
        if kind == "action" and command.get("seat") is not None:
            # A bot's or the clock's move, sent by a process that never owns
            # (:func:`turn_at_owner`): for the seat, not for a person.
            applied = services.action_submit(
                table_id=table_id,
                seat=command["seat"],
                action=action_from_dict(command["action"]),
                expected_version=command["version"],
                source=command["source"],
            )
            return {"version": applied.version, "duplicate": applied.duplicate}
        if user is None:
            user = _user(command["user_id"])
        if kind == "action":
            applied = services.action_submit(
                table_id=table_id,
                user=user,
                action=action_from_dict(command["action"]),
                expected_version=command["version"],
                source=command.get("source", "human"),
                client_id=command.get("client_id"),
            )
            return {"version": applied.version, "duplicate": applied.duplicate}
        if kind == "seed":
            services.dealing_add_seed(
                table_id=table_id, user=user, dealing=command["dealing"], seed=command["seed"]
            )
        elif kind == "back":
            services.seat_return(table_id=table_id, user=user)
        else:
            raise errors.UnknownType(f"no command {kind!r}")
        return {}
    except errors.TableError as exc:
        return {"error": exc.code, "message": exc.message}


_run_in_pool = in_pool(_run)


def _error(answer: dict[str, Any]) -> errors.TableError:
    """The error an answer carries, as the service raised it (same code, same message)."""
    code = answer["error"]
    for kind in _error_kinds(errors.TableError):
        if kind.code == code:
            return kind(answer.get("message"))
    error = errors.TableError(answer.get("message"))
    error.code = code
    return error


def _error_kinds(base: type[errors.TableError]) -> list[type[errors.TableError]]:
    kinds: list[type[errors.TableError]] = []
    for kind in base.__subclasses__():
        kinds.append(kind)
        kinds.extend(_error_kinds(kind))
    return kinds


# -- the registry ---------------------------------------------------------------------------


class Registry:
    """The live tables this process owns, the connection that holds their locks, and the
    channel it hears commands on. One per process (:data:`registry`); tests make more to
    play several processes."""

    def __init__(self) -> None:
        self.tables: dict[int, Owned] = {}
        # Tables whose owner answered from another process: their commands go there
        # first, without trying the lock each time.
        self.elsewhere: set[int] = set()
        self._conn: Any = None
        self._conn_lock = threading.Lock()
        # The loop's turn for statements on that connection (:meth:`_lock_statement`),
        # and the takes under way, by table (:meth:`take`).
        self._statements: tuple[asyncio.AbstractEventLoop, asyncio.Lock] | None = None
        self._taking: dict[int, asyncio.Future[bool]] = {}
        self.channel: str | None = None
        self._listener: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        # Tables with sockets here, by how many (owned here or not): the owners of the
        # others are told so every WATCH_SECONDS / 3 (:meth:`watch`).
        self.watching: Counter[int] = Counter()
        self._renewer: asyncio.Task[None] | None = None
        self.writer = owner_write.Writer()
        # Whether the owned tables' updates go straight to this process's sockets
        # (``games.realtime.delivered_here``): the process's own registry only (tests
        # play several processes with several registries in one).
        self.delivers = False

    # -- ownership (the advisory lock) -------------------------------------------------------

    def _locking(self, sql: str, table_id: int) -> bool:
        """Run one advisory-lock statement on the ownership connection (opened on first
        use, autocommit). A connection found dead loses every lock: all tables dropped."""
        with self._conn_lock:
            for attempt in (1, 2):
                if self._conn is None or self._conn.closed:
                    if self._conn is not None:
                        self._lost()
                    # Its own connection, never one of the pool's: the locks live as
                    # long as it does.
                    params = connections["default"].get_connection_params()
                    self._conn = psycopg.connect(**params, autocommit=True)
                try:
                    row = self._conn.execute(sql, [LOCK_NAMESPACE, table_id]).fetchone()
                    return bool(row[0])
                except Exception:
                    if attempt == 2:
                        raise
                    log.warning("the ownership connection died: every table owned here is dropped")
                    self._close()
                    self._lost()
        return False  # pragma: no cover - the loop returns or raises

    async def _lock_statement(self, sql: str, table_id: int) -> bool:
        """:meth:`_locking` in a worker thread, one statement at a time: the others wait
        on the loop, not in a thread each (900 sockets connecting at once each held a
        thread of the pool while it waited for the one ownership connection, and every
        other database call of the process waited behind them)."""
        loop = asyncio.get_running_loop()
        if self._statements is None or self._statements[0] is not loop:
            self._statements = (loop, asyncio.Lock())
        async with self._statements[1]:
            return await sync_to_async(self._locking, thread_sensitive=False)(sql, table_id)

    def _close(self) -> None:
        with contextlib.suppress(Exception):  # closing a dead connection
            self._conn.close()

    def _lost(self) -> None:
        for table_id in list(self.tables):
            self._drop(table_id)

    def _drop(self, table_id: int) -> None:
        """Forget a table this process no longer owns, and its engine state."""
        owned = self.tables.pop(table_id, None)
        if owned is not None and realtime.delivered_here.get(table_id) == owned.watched:
            del realtime.delivered_here[table_id]
        table_state.forget(table_id)
        if owned is not None and self.channel is not None:
            self._discard_group(table_id)

    def _discard_group(self, table_id: int) -> None:
        layer, loop, channel = get_channel_layer(), self._loop, self.channel
        if layer is None or loop is None or loop.is_closed() or channel is None:
            return
        coroutine = layer.group_discard(owner_group(table_id), channel)
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            loop.create_task(coroutine)
        else:
            asyncio.run_coroutine_threadsafe(coroutine, loop)

    def owns(self, table_id: int) -> bool:
        return table_id in self.tables

    async def take(self, table_id: int) -> bool:
        """Own the table if nobody does (this process may already); True when it does.
        Takes of one table at once (its three players' sockets connecting together) wait
        for the first one's answer instead of each asking PostgreSQL."""
        if table_id in self.tables:
            return True
        taking = self._taking.get(table_id)
        if taking is None or taking.get_loop() is not asyncio.get_running_loop():
            taking = self._taking[table_id] = asyncio.ensure_future(self._take(table_id))
            taking.add_done_callback(lambda done: self._took(table_id, done))
        return await asyncio.shield(taking)

    def _took(self, table_id: int, done: asyncio.Future[bool]) -> None:
        if self._taking.get(table_id) is done:
            del self._taking[table_id]

    async def _take(self, table_id: int) -> bool:
        if not ON_SQLITE:
            taken = await self._lock_statement("SELECT pg_try_advisory_lock(%s, %s)", table_id)
            if not taken:
                return False
            if table_id in self.tables:
                # Another command here took it meanwhile: a session's advisory lock
                # counts its takings, so this one is given back at once.
                await self._lock_statement("SELECT pg_advisory_unlock(%s, %s)", table_id)
                return True
        if table_id not in self.tables:
            owned = self.tables[table_id] = Owned(table_id)
            table_state.forget(table_id)  # rebuilt from the log, as the owner sees it
            if self.delivers:
                realtime.delivered_here[table_id] = owned.watched
            await self._listen()
            layer = get_channel_layer()
            if layer is not None and self.channel is not None:
                await layer.group_add(owner_group(table_id), self.channel)
        return True

    async def release(self, table_id: int) -> None:
        """Give the table up (its last socket here left): its lock and its state."""
        owned = self.tables.get(table_id)
        if owned is None:
            return
        async with owned.lock:
            if self.tables.get(table_id) is not owned:
                return
            self._drop(table_id)
            if not ON_SQLITE:
                await self._lock_statement("SELECT pg_advisory_unlock(%s, %s)", table_id)
        if not self.tables:
            await self._stop_listening()

    async def _stop_listening(self) -> None:
        """This process owns no table any more: its command channel is given back (its
        Redis subscription with it); the next table it takes opens a new one. Commands
        go to a table's owner group, never to this channel by name."""
        listener, channel = self._listener, self.channel
        self._listener = self.channel = None
        if listener is not None:
            listener.cancel()
        if channel is not None:
            await channel_release(channel)

    def check(self) -> bool:
        """Whether the ownership connection is alive; when it is not, every table owned
        here is dropped (another process may hold their locks already)."""
        if ON_SQLITE or self._conn is None:
            return True
        with self._conn_lock:
            try:
                self._conn.execute("SELECT 1")
                return True
            except Exception:
                log.warning("the ownership connection died: every table owned here is dropped")
                self._close()
                self._conn = None
                self._lost()
                return False

    def close(self) -> None:
        """Let every table go (tests; a process that stops gives its locks up by dying)."""
        for task in (self._listener, self._renewer):
            if task is not None:
                with contextlib.suppress(RuntimeError):  # its loop closed already
                    task.cancel()
        self._listener = self._renewer = None
        self.writer.close()
        for table_id in self.tables:
            realtime.delivered_here.pop(table_id, None)
        self.watching.clear()
        self.tables.clear()
        self.elsewhere.clear()
        self._taking.clear()
        self._statements = None
        self.channel = None
        with self._conn_lock:
            if self._conn is not None:
                self._close()
                self._conn = None

    # -- commands ----------------------------------------------------------------------------

    async def submit(self, command: dict[str, Any], user: Visitor | None = None) -> dict[str, Any]:
        """Carry out ``command`` at its table, wherever the table's owner is: here (in
        order with the table's other commands), at the owner over the channel layer, or,
        when nobody answers and the lock is another's, here through the fenced write."""
        table_id = command["table_id"]
        if table_id in self.tables or (
            table_id not in self.elsewhere and await self.take(table_id)
        ):
            answer = await self._apply(command, user)
            if answer is not None:
                return answer
            # The fence refused this process's write: it owns the table no more.
            if await self.take(table_id):
                return await self._apply(command, user) or _stale()
        answer = await self._ask(command)
        if answer is not None:
            if len(self.elsewhere) >= ELSEWHERE_REMEMBERED:
                self.elsewhere.clear()
            self.elsewhere.add(table_id)
            return answer
        self.elsewhere.discard(table_id)
        if await self.take(table_id):
            return await self._apply(command, user) or _stale()
        return await _run_in_pool(command, user)

    async def _apply(self, command: dict[str, Any], user: Visitor | None) -> dict[str, Any] | None:
        """Apply a command of a table owned here, in its turn. None: the write was refused
        by the fence (another process wrote the version this one believed current): the
        table and its state are dropped here."""
        table_id = command["table_id"]
        owned = self.tables.get(table_id)
        if owned is None:
            return None
        async with owned.lock:
            if self.tables.get(table_id) is not owned:
                return None
            answer = None
            if command.get("command") == "action" and not ON_SQLITE:
                user_id = command.get("user_id") if user is None else user_id_of(user)
                answer = await self.writer.write(table_id, user_id, command)
            if answer is None:
                # The whole path. A version written elsewhere (a bot's turn on a worker, a
                # write through the fence) is caught up from the log's rows (games.state).
                answer = await _run_in_pool(command, user)
            if answer.get("error") == errors.StaleVersion.code and (
                command.get("version") == owned.version
            ):
                self._drop(table_id)
                if not ON_SQLITE:
                    await self._lock_statement("SELECT pg_advisory_unlock(%s, %s)", table_id)
                return None
            if "version" in answer:
                owned.version = answer["version"]
            return answer

    async def _ask(self, command: dict[str, Any]) -> dict[str, Any] | None:
        """Send ``command`` to the table's owner; its answer, or None when none came."""
        layer = get_channel_layer()
        if layer is None:
            return None
        reply = await layer.new_channel("owner-reply.")
        correlation = uuid.uuid4().hex
        try:
            heard = await group_send_counted(
                owner_group(command["table_id"]),
                {"type": COMMAND, "command": command, "reply": reply, "id": correlation},
            )
            if heard == 0:
                # No process listens for the table's commands (its owner let it go, or
                # Redis restarted and the owner has not subscribed again yet): no answer
                # will come, so none is waited for.
                return None
            async with asyncio.timeout(settings.GAMES_TABLE_OWNER_TIMEOUT):
                while True:
                    message = await layer.receive(reply)
                    if message.get("id") == correlation:
                        answer: dict[str, Any] = message["answer"]
                        return answer
        except TimeoutError:
            return None
        finally:
            await channel_release(reply)

    # -- sockets of tables owned elsewhere ------------------------------------------------

    async def watch(self, table_id: int) -> None:
        """A socket of the table connected here: own the table unless another process
        does, and tell that one that this process has sockets there (so it publishes
        the table's updates for them, not only to its own), before the socket reads the
        table's state; told again every WATCH_SECONDS / 3 while sockets stay."""
        self.watching[table_id] += 1
        self._renewing()
        if table_id in self.tables or (
            table_id not in self.elsewhere and await self.take(table_id)
        ):
            return
        if await self._ask({"table_id": table_id, "command": "watch"}) is not None:
            self.elsewhere.add(table_id)
            return
        # Nobody answered: the lock's holder is gone (its connection not closed yet) or
        # has just let go; own the table if its lock is free now.
        self.elsewhere.discard(table_id)
        await self.take(table_id)

    def unwatch(self, table_id: int) -> None:
        """A socket of the table here ended."""
        self.watching[table_id] -= 1
        if self.watching[table_id] <= 0:
            del self.watching[table_id]

    def _renewing(self) -> None:
        if self._renewer is None or self._renewer.done():
            self._renewer = asyncio.get_running_loop().create_task(self._keep_renewing())

    async def _keep_renewing(self) -> None:
        layer = get_channel_layer()
        while layer is not None:
            await asyncio.sleep(settings.GAMES_TABLE_OWNER_WATCH_SECONDS / 3)
            for table_id in [t for t in self.watching if t not in self.tables]:
                command = {"table_id": table_id, "command": "watch"}
                try:
                    await layer.group_send(
                        owner_group(table_id), {"type": COMMAND, "command": command}
                    )
                except Exception:
                    log.warning("telling table %s's owner about its sockets here failed", table_id)

    # -- the owner's side: hearing commands ------------------------------------------------

    async def _listen(self) -> None:
        """Open this process's command channel and start hearing it (once per loop)."""
        loop = asyncio.get_running_loop()
        if self._listener is not None and not self._listener.done() and self._loop is loop:
            return
        layer = get_channel_layer()
        if layer is None:
            return
        self._loop = loop
        self.channel = await layer.new_channel("owner.")
        self._listener = loop.create_task(self._hear(self.channel))
        for table_id in list(self.tables):
            await layer.group_add(owner_group(table_id), self.channel)

    async def _hear(self, channel: str) -> None:
        layer = get_channel_layer()
        assert layer is not None
        checker = asyncio.get_running_loop().create_task(self._keep_checking())
        try:
            while True:
                message = await layer.receive(channel)
                if message.get("type") == COMMAND:
                    asyncio.get_running_loop().create_task(self._answer(message))
        finally:
            checker.cancel()

    async def _keep_checking(self) -> None:
        while True:
            await asyncio.sleep(settings.GAMES_TABLE_OWNER_CHECK_SECONDS)
            if self.tables:
                await sync_to_async(self.check, thread_sensitive=False)()

    async def _answer(self, message: dict[str, Any]) -> None:
        command = message["command"]
        layer = get_channel_layer()
        assert layer is not None
        if command.get("command") == "watch":
            owned = self.tables.get(command["table_id"])
            if owned is None:
                return  # not the owner any more: the caller finds the owner as it is now
            owned.watched_until = time.monotonic() + settings.GAMES_TABLE_OWNER_WATCH_SECONDS
            if message.get("reply"):
                await layer.send(
                    message["reply"], {"type": REPLY, "id": message["id"], "answer": {}}
                )
            return
        try:
            answer = await self._apply(command, None)
        except Exception:
            log.exception("a command of table %s failed", command.get("table_id"))
            return  # no answer: the caller decides after its timeout
        if answer is None:
            return  # not the owner any more: the caller finds the owner as it is now
        await layer.send(message["reply"], {"type": REPLY, "id": message["id"], "answer": answer})


def _stale() -> dict[str, Any]:
    return {"error": errors.StaleVersion.code, "message": errors.StaleVersion().message}


registry = Registry()
registry.delivers = True


# -- what the sockets call --------------------------------------------------------------------


async def command(command: dict[str, Any], user: Visitor | None = None) -> dict[str, Any]:
    """Carry out a table's command (``{"table_id", "command": "action" | "seed" | "back",
    …}``) through its owner (with ``GAMES_TABLE_OWNER`` off: here, through the service
    in the thread pool); raises the service's error, returns its answer."""
    if enabled():
        answer = await registry.submit(command, user)
    else:
        answer = await _run_in_pool(command, user)
    if "error" in answer:
        raise _error(answer)
    return answer


def turn_at_owner(
    *, table_id: int, seat: int, action: Action, expected_version: int, source: str
) -> bool:
    """A bot's or the clock's move, decided in a process that never owns (a Celery
    worker), carried out by the table's owner: its state stays the one it wrote (no
    catch-up from the log at the next player's action) and its sockets get the update
    straight. True when the owner answered (the error it answered with is raised, as the
    service raised it); False when nobody holds the table's lock or the holder did not
    answer in time: the caller writes through the fence itself, as without an owner."""
    if not enabled() or ON_SQLITE or not between_processes() or not _lock_held(table_id):
        return False
    command = {
        "table_id": table_id,
        "command": "action",
        "seat": seat,
        "source": source,
        "action": action.to_dict(),
        "version": expected_version,
    }
    timeout = settings.GAMES_TABLE_OWNER_TIMEOUT
    answer = run_on_process_loop(registry._ask(command), timeout=timeout + 5)
    if answer is None:
        return False
    if "error" in answer:
        raise _error(answer)
    return True


def _lock_held(table_id: int) -> bool:
    """Whether a process holds the table's ownership lock now."""
    with connections["default"].cursor() as cursor:
        cursor.execute(
            "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted"
            " AND classid = %s AND objid = %s AND objsubid = 2)",
            [LOCK_NAMESPACE, table_id],
        )
        row = cursor.fetchone()
    return bool(row and row[0])


async def watch(table_id: int) -> None:
    """A socket of the table connected here (:meth:`Registry.watch`)."""
    await registry.watch(table_id)


async def unwatch(table_id: int, *, last: bool) -> None:
    """A socket of the table here ended (``last``: the table's last one here): when it
    was the last, the table is let go."""
    registry.unwatch(table_id)
    if last:
        await registry.release(table_id)
