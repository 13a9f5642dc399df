"""What every websocket of the site shares, whatever its kind (a table, the lobby, a
tournament's page, the notification area, the echo), docs/security.md "Websockets":

* **Caps.** One person, and one address, hold at most so many sockets of a kind at a
  time (``GAMES_WS_MAX_PER_USER``, ``GAMES_WS_MAX_PER_ADDRESS``), counted across every
  server process in Redis (in this process's memory in the embedded default). Each socket
  holds a *lease* there that its process renews while the socket is open and gives back
  however the socket ends; a process that dies leaves leases that run out
  (``GAMES_WS_LEASE_SECONDS``), so nobody is kept out by counts nobody holds.
* **Revocation.** A signed-in socket remembers its account's credential generation as
  it was signed in (PostgreSQL: accounts.services.credential_generation_advance, on his
  token revoked or rotated, his password changed, a sign-out, the account deactivated)
  and, when a session signed it in, that session. Each event loop checks all its sockets
  against the database (two queries) every half of ``GAMES_WS_CREDENTIAL_SECONDS``, and a
  socket checks itself before it acts when its last check is older than that
  (:meth:`GuardedSocket.credential_holds`); a socket whose generation moved on, whose
  account is no longer active or whose session is gone is told so and closes with
  :data:`CLOSE_SIGNED_OUT`. The revocation also sends a message to the user's group
  (:func:`user_group`) that closes his sockets at once; it travels through Redis, and
  may be lost, which delays the closing by at most that long, nothing else.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
import weakref
from typing import Any

import redis.asyncio as aredis
from channels.db import database_sync_to_async
from django.conf import settings
from django.db import close_old_connections
from django.utils.translation import gettext_lazy as _

from core.credentials import credential_generations, credentials_revoked, sessions_existing
from core.realtime import ReleasesChannel
from core.realtime import send as realtime_send
from core.redis_options import redis_options
from core.sockets import ON_SQLITE

log = logging.getLogger(__name__)

CLOSE_TOO_MANY = 4429
CLOSE_SIGNED_OUT = 4401

# Under the cache's key prefix, so that whatever clears this project's keys in Redis (the
# test suite before each test) clears these too.
PREFIX = f"{settings.CACHES['default'].get('KEY_PREFIX') or 'thousand'}:ws:"

NOUNS = {
    "table": "table",
    "lobby": "lobby",
    "tournament": "tournament",
    "notifications": "notification",
    "echo": "echo",
    "social": "social",
}


SIGNED_OUT = _("You were signed out (or your password or token changed): sign in again.")


def user_group(user_id: int) -> str:
    """The channel-layer group of every socket of one signed-in user."""
    return f"user.{user_id}"


def frame(code: str, message: str) -> str:
    """An error frame in the protocol's one shape (docs/protocol.md §4)."""
    return json.dumps(
        {"type": "error", "id": None, "code": code, "message": message}, separators=(",", ":")
    )


# -- the store: Redis on the full stack, this process's memory in the embedded default -------


_TAKE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local lease = tonumber(ARGV[2])
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  if redis.call('ZCARD', key) >= tonumber(ARGV[2 + i]) then return i end
end
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, now + lease, ARGV[1])
  redis.call('EXPIRE', key, math.ceil(lease) + 1)
end
return 0
"""

_RENEW = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local lease = tonumber(ARGV[1])
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, 'XX', now + lease, ARGV[1 + i])
  redis.call('EXPIRE', key, math.ceil(lease) + 1)
end
return 0
"""


def _lease() -> float:
    return float(settings.GAMES_WS_LEASE_SECONDS)


class _Local:
    """The store of the embedded default: one process, so its memory is the truth."""

    def __init__(self) -> None:
        self.held: dict[str, set[str]] = {}

    async def take(self, member: str, keys: list[tuple[str, int]]) -> int:
        for number, (key, cap) in enumerate(keys, start=1):
            if len(self.held.get(key, ())) >= cap:
                return number
        for key, _cap in keys:
            self.held.setdefault(key, set()).add(member)
        return 0

    async def give_back(self, member: str, keys: list[str]) -> None:
        for key in keys:
            held = self.held.get(key)
            if held is not None:
                held.discard(member)
                if not held:
                    del self.held[key]

    async def renew(self, holdings: list[tuple[str, str]]) -> None:
        return None


POOL_CONNECTIONS = 50  # a process's connections for the leases, per event loop
POOL_WAIT_SECONDS = 10.0  # how long a command waits for one of them


class _Redis:
    """Leases in one sorted set per person or address and kind (member: the socket,
    score: when its lease runs out)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, aredis.Redis] = (
            weakref.WeakKeyDictionary()
        )

    def client(self) -> aredis.Redis:
        loop = asyncio.get_running_loop()
        client = self.clients.get(loop)
        if client is None:
            # A pool that makes a command wait for a free connection: every socket of a
            # process closing at once (a restart, a network cut) gave its leases back
            # together, and the default pool refused all past its cap ("Too many
            # connections"), leaving them to run out a minute later.
            pool = aredis.BlockingConnectionPool.from_url(
                self.url,
                max_connections=POOL_CONNECTIONS,
                timeout=POOL_WAIT_SECONDS,
                socket_timeout=2,
                socket_connect_timeout=2,
                **redis_options(asyncio=True),
            )
            client = self.clients[loop] = aredis.Redis(connection_pool=pool)
        return client

    async def take(self, member: str, keys: list[tuple[str, int]]) -> int:
        client = self.client()
        answer = await client.eval(
            _TAKE,
            len(keys),
            *(key for key, _cap in keys),
            member,
            _lease(),
            *(cap for _key, cap in keys),
        )
        return int(answer)

    async def give_back(self, member: str, keys: list[str]) -> None:
        async with self.client().pipeline(transaction=False) as pipe:
            for key in keys:
                pipe.zrem(key, member)
            await pipe.execute()

    async def renew(self, holdings: list[tuple[str, str]]) -> None:
        client = self.client()
        for start in range(0, len(holdings), 500):
            part = holdings[start : start + 500]
            await client.eval(
                _RENEW, len(part), *(key for key, _m in part), _lease(), *(m for _k, m in part)
            )


_store: _Local | _Redis | None = None


def store() -> _Local | _Redis:
    global _store
    if _store is None:
        _store = _Redis(settings.REDIS_URL) if settings.REDIS_URL else _Local()
    return _store


# -- the leases this process holds, renewed while their sockets are open --------------------


class _Holdings:
    """The leases held by the sockets of one event loop, and the task that renews them
    every third of a lease."""

    def __init__(self) -> None:
        self.keys: dict[str, list[str]] = {}
        self.task: asyncio.Task[None] | None = None

    def add(self, member: str, keys: list[str]) -> None:
        self.keys[member] = keys
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self.renew())

    def remove(self, member: str) -> list[str]:
        return self.keys.pop(member, [])

    async def renew(self) -> None:
        while self.keys:
            await asyncio.sleep(_lease() / 3)
            holdings = [(key, member) for member, keys in self.keys.items() for key in keys]
            try:
                await store().renew(holdings)
            except Exception:  # Redis away: the sockets keep playing; retried next time
                log.warning("could not renew %d socket leases", len(holdings), exc_info=True)


_holdings: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Holdings] = (
    weakref.WeakKeyDictionary()
)


def _holdings_here() -> _Holdings:
    loop = asyncio.get_running_loop()
    held = _holdings.get(loop)
    if held is None:
        held = _holdings[loop] = _Holdings()
    return held


# -- revocation --------------------------------------------------------------------------


def sockets_close(*, user_id: int, reason: str) -> None:
    """Tell every socket of the user (all processes) to close at once. Call after the
    revocation has committed (accounts.sockets), which has advanced his credential
    generation: a socket that this message misses closes at its next check."""
    text = frame("signed_out", str(SIGNED_OUT))
    realtime_send([(user_group(user_id), text)], "user.revoked")
    log.info("closing every socket of user %s (%s)", user_id, reason)


def _credential_seconds() -> float:
    return max(float(settings.GAMES_WS_CREDENTIAL_SECONDS), 0.0)


# A socket's credential as it was signed in: (user id, generation, session key or None).
Held = tuple[int, int, str | None]


def _revoked(held: list[Held]) -> list[bool]:
    """For each socket's credential, whether it no longer holds: the account's generation
    moved on (or it is deactivated, or gone), or the session that signed it in is gone.
    Two queries at most (the second only for sockets a session signed in), however many
    sockets, each answering only with what no longer holds (core.credentials)."""
    try:
        revoked = credentials_revoked(
            held={(user_id, generation) for user_id, generation, _s in held}
        )
        keys = {key for _u, _g, key in held if key}
        sessions = sessions_existing(session_keys=keys) if keys else set()
        return [
            (user_id, generation) in revoked or (key is not None and key not in sessions)
            for user_id, generation, key in held
        ]
    finally:
        close_old_connections()


def _generation_of(user_id: int) -> int | None:
    try:
        return credential_generations(user_ids=[user_id]).get(user_id)
    finally:
        close_old_connections()


_revoked_read = database_sync_to_async(_revoked, thread_sensitive=ON_SQLITE)
_generation_read = database_sync_to_async(_generation_of, thread_sensitive=ON_SQLITE)


async def _check(sockets: list[GuardedSocket]) -> None:
    """Check the sockets' credentials in the database; close those that no longer hold."""
    sockets = [s for s in sockets if s.guard_held is not None and not s.guard_closed]
    if not sockets:
        return
    began = time.monotonic()
    revoked = await _revoked_read([s.guard_held for s in sockets])
    for socket, gone in zip(sockets, revoked, strict=True):
        if gone:
            try:
                await socket.user_revoked({"text": frame("signed_out", str(SIGNED_OUT))})
            except Exception:  # closed meanwhile
                log.debug("could not close a revoked socket", exc_info=True)
        else:
            socket.guard_checked = max(socket.guard_checked, began)


class _Watch:
    """The signed-in sockets of one event loop, and the task that checks their
    credentials every half of ``GAMES_WS_CREDENTIAL_SECONDS`` (at most twice a second)."""

    def __init__(self) -> None:
        self.sockets: dict[GuardedSocket, None] = {}  # an ordered set
        self.task: asyncio.Task[None] | None = None
        # The sockets about to act whose last check is too old, and what tells them the
        # answer: checked together (:meth:`confirm`).
        self.batch: tuple[list[GuardedSocket], asyncio.Future[None]] | None = None
        self.confirming: asyncio.Task[None] | None = None

    async def confirm(self, socket: GuardedSocket) -> None:
        """Check ``socket``'s credential now, with every other socket of this event loop
        that asks in the same turn of the loop: one query for all of them (under load
        many sockets' checks run out at once, and each of their actions read the
        database on its own before). The query starts after the socket asked, so it
        sees every revocation committed before."""
        if self.batch is None:
            loop = asyncio.get_running_loop()
            self.batch = ([], loop.create_future())
            self.confirming = loop.create_task(self._confirm(self.batch))
        sockets, answered = self.batch
        sockets.append(socket)
        await asyncio.shield(answered)

    async def _confirm(self, batch: tuple[list[GuardedSocket], asyncio.Future[None]]) -> None:
        await asyncio.sleep(0)  # the others asking in this turn of the loop join
        if self.batch is batch:
            self.batch = None  # who asks from now on waits for the next query
        sockets, answered = batch
        try:
            await _check(sockets)
        except Exception as exc:
            answered.set_exception(exc)
        else:
            answered.set_result(None)

    def add(self, socket: GuardedSocket) -> None:
        self.sockets[socket] = None
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self.run())

    def remove(self, socket: GuardedSocket) -> None:
        self.sockets.pop(socket, None)

    async def run(self) -> None:
        while self.sockets:
            await asyncio.sleep(max(_credential_seconds() / 2, 0.5))
            try:
                await _check(list(self.sockets))
            except Exception:  # the database away: the sockets cannot act either
                log.warning(
                    "could not check %d sockets' credentials", len(self.sockets), exc_info=True
                )


_watches: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Watch] = weakref.WeakKeyDictionary()


def _watch_here() -> _Watch:
    loop = asyncio.get_running_loop()
    watch = _watches.get(loop)
    if watch is None:
        watch = _watches[loop] = _Watch()
    return watch


# -- the consumers' side ------------------------------------------------------------------


class GuardedSocket(ReleasesChannel):
    """Mixed into every websocket consumer in place of ReleasesChannel. The consumer
    calls :meth:`admit` after ``accept()`` in its ``connect`` (and returns when it says
    no), and :meth:`credential_holds` before the socket acts. ``socket_kind`` names what
    is counted (:data:`NOUNS`)."""

    socket_kind = "echo"
    guard_user_id: int | None = None
    guard_member: str | None = None
    # What signed the socket in (:data:`Held`), when it was last checked (monotonic), and
    # whether it has been told it was signed out.
    guard_held: Held | None = None
    guard_checked = 0.0
    guard_closed = False

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            await self._give_back()

    async def admit(self) -> bool:
        """Take this socket's leases and join its user's group; False (and the socket
        closed with :data:`CLOSE_TOO_MANY`) when its person or address has as many
        sockets of this kind as allowed."""
        scope: dict[str, Any] = self.scope  # type: ignore[attr-defined]
        user = scope.get("user")
        user_id = user.pk if user is not None and user.is_authenticated else None
        address = (scope.get("client") or (None,))[0]
        keys: list[tuple[str, int]] = []
        noun = NOUNS.get(self.socket_kind, self.socket_kind)
        reasons: list[str] = []
        if user_id is not None:
            keys.append((f"{PREFIX}{self.socket_kind}:u:{user_id}", settings.GAMES_WS_MAX_PER_USER))
            reasons.append(
                f"at most {settings.GAMES_WS_MAX_PER_USER} {noun} connections at a time per player"
            )
        cap = settings.GAMES_WS_MAX_PER_ADDRESS
        if cap and address is not None:
            keys.append((f"{PREFIX}{self.socket_kind}:a:{address}", cap))
            reasons.append(f"at most {cap} {noun} connections at a time per address")
        if keys:
            member = f"{self.channel_name}:{secrets.token_hex(4)}"
            try:
                refused = await store().take(member, keys)
            except Exception:
                # Redis away: the socket is let in uncounted (it cannot play until Redis
                # is back anyway: the channel layer is there too).
                log.warning("could not count a %s socket; let in", self.socket_kind, exc_info=True)
                refused = -1
            if refused > 0:
                await self.send(text_data=frame("too_many_connections", reasons[refused - 1]))  # type: ignore[attr-defined]
                await self.close(CLOSE_TOO_MANY)  # type: ignore[attr-defined]
                return False
            if refused == 0:
                self.guard_member = member
                _holdings_here().add(member, [key for key, _cap in keys])
        if user_id is not None:
            self.guard_user_id = user_id
            await self.channel_layer.group_add(user_group(user_id), self.channel_name)  # type: ignore[attr-defined]
            await self._hold(scope, user, user_id)
        return True

    async def _hold(self, scope: dict[str, Any], user: Any, user_id: int) -> None:
        """Remember what signed the socket in, and have it checked from now on. The
        generation is the one read with the user as the socket was signed in (a
        revocation since then makes the first check close it)."""
        generation = getattr(user, "credential_generation", None)
        if generation is None:
            generation = await _generation_read(user_id)
        session_key = None
        if scope.get("auth_token") is None:
            session_key = getattr(scope.get("session"), "session_key", None)
        self.guard_held = (user_id, -1 if generation is None else generation, session_key)
        self.guard_checked = time.monotonic()
        _watch_here().add(self)

    async def _give_back(self) -> None:
        if self.guard_held is not None:
            _watch_here().remove(self)
            self.guard_held = None
        member, self.guard_member = self.guard_member, None
        if member is not None:
            keys = _holdings_here().remove(member)
            try:
                await store().give_back(member, keys)
            except Exception:  # its lease runs out instead
                log.warning("could not give back a socket's lease", exc_info=True)
        user_id, self.guard_user_id = self.guard_user_id, None
        if user_id is not None:
            layer = getattr(self, "channel_layer", None)
            if layer is not None:
                try:
                    await layer.group_discard(user_group(user_id), self.channel_name)
                except Exception:
                    log.debug("could not leave the user's group", exc_info=True)

    async def credential_holds(self) -> bool:
        """Before the socket acts: True unless its credential was revoked (then the socket
        is told so and closed). Checked in the database when the last check is older than
        ``GAMES_WS_CREDENTIAL_SECONDS``; the event loop's own checks, every half of it,
        keep that rare."""
        if self.guard_held is None:
            return not self.guard_closed
        if time.monotonic() - self.guard_checked >= _credential_seconds():
            await _watch_here().confirm(self)
        return not self.guard_closed

    async def user_revoked(self, event: dict[str, Any]) -> None:
        """His credentials were revoked: say so, and close (once)."""
        if self.guard_closed:
            return
        self.guard_closed = True
        await self.send(text_data=event["text"])  # type: ignore[attr-defined]
        await self.close(CLOSE_SIGNED_OUT)  # type: ignore[attr-defined]

    async def user_notified(self, event: dict[str, Any]) -> None:
        """A notification for the notification area's socket; others let it pass."""
