"""What every websocket of the site shares, whatever its kind (a table, the lobby, a
tournament's page, the notification area, the echo), docs/security.md "Websockets":

* **Caps.** One person, and one address, hold at most so many sockets of a kind at a
  time (``GAMES_WS_MAX_PER_USER``, ``GAMES_WS_MAX_PER_ADDRESS``), counted across every
  server process in Redis (in this process's memory in the embedded default). Each socket
  holds a *lease* there that its process renews while the socket is open and gives back
  however the socket ends; a process that dies leaves leases that run out
  (``GAMES_WS_LEASE_SECONDS``), so nobody is kept out by counts nobody holds.
* **Revocation.** A signed-in socket joins its user's group (:func:`user_group`). When
  his credentials are revoked (accounts.sockets: his token revoked or rotated, his
  password changed, a sign-out, the account deactivated) every socket of his is told so
  and closes with :data:`CLOSE_SIGNED_OUT`; the time of the revocation is kept too, and
  a socket that acts checks its credential again when a revocation happened since it
  was signed in (:meth:`GuardedSocket.credential_holds`): the message that closes it
  travels through the channel layer, and may be lost.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import secrets
import threading
import time
import weakref
from importlib import import_module
from typing import Any

import redis
import redis.asyncio as aredis
from channels.db import database_sync_to_async
from django.conf import settings
from django.db import close_old_connections
from django.utils.translation import gettext_lazy as _

from games.realtime import ReleasesChannel
from games.realtime import send as realtime_send

log = logging.getLogger(__name__)

CLOSE_TOO_MANY = 4429
CLOSE_SIGNED_OUT = 4401

# How far apart the clocks of two machines may be: a revocation stamped up to this long
# before a socket signed in still makes it check its credential when it acts.
CLOCK_SKEW = 5.0

# Under the cache's key prefix, so that whatever clears this project's keys in Redis (the
# test suite before each test) clears these too.
PREFIX = f"{settings.CACHES['default'].get('KEY_PREFIX') or 'thousand'}:ws:"

NOUNS = {
    "table": "table",
    "lobby": "lobby",
    "tournament": "tournament",
    "notifications": "notification",
    "echo": "echo",
    "club": "club",
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
        self.revoked: dict[int, float] = {}

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

    async def revoked_at(self, user_id: int) -> float | None:
        return self.revoked.get(user_id)

    def revoke(self, user_id: int, when: float) -> None:
        self.revoked[user_id] = when


class _Redis:
    """Leases in one sorted set per person or address and kind (member: the socket,
    score: when its lease runs out); revocation times in plain keys."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, aredis.Redis] = (
            weakref.WeakKeyDictionary()
        )
        self.sync_client: redis.Redis | None = None
        self.lock = threading.Lock()

    def client(self) -> aredis.Redis:
        loop = asyncio.get_running_loop()
        client = self.clients.get(loop)
        if client is None:
            client = self.clients[loop] = aredis.Redis.from_url(
                self.url, socket_timeout=2, socket_connect_timeout=2
            )
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

    async def revoked_at(self, user_id: int) -> float | None:
        value = await self.client().get(f"{PREFIX}revoked:{user_id}")
        return None if value is None else float(value)

    def revoke(self, user_id: int, when: float) -> None:
        with self.lock:
            if self.sync_client is None:
                self.sync_client = redis.Redis.from_url(
                    self.url, socket_timeout=2, socket_connect_timeout=2
                )
        # Kept for good: a socket may stay open for days, and one key per person is small.
        self.sync_client.set(f"{PREFIX}revoked:{user_id}", repr(when))


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
    """Close every socket of the user (all processes), and keep the time, so that a socket
    that the message misses finds out when it next acts. Call after the revocation has
    committed (accounts.sockets)."""
    try:
        store().revoke(user_id, time.time())
    except Exception:
        log.exception("could not record the revocation of user %s's sockets", user_id)
    text = frame("signed_out", str(SIGNED_OUT))
    realtime_send([(user_group(user_id), text)], "user.revoked")
    log.info("closing every socket of user %s (%s)", user_id, reason)


def _credential_holds(scope: dict[str, Any], user_id: int) -> bool:
    """Whether what signed the socket in still signs ``user_id`` in: its API token, or
    its session (read again: signed out, or signed out by a password change)."""
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    try:
        key = scope.get("auth_token")
        if key is not None:
            return Token.objects.filter(key=key, user_id=user_id, user__is_active=True).exists()
        session = scope.get("session")
        session_key = getattr(session, "session_key", None)
        if session_key is None:
            # Signed in by neither (a test's scope): the account must still be active.
            return get_user_model().objects.filter(pk=user_id, is_active=True).exists()
        from channels.auth import get_user

        engine = import_module(settings.SESSION_ENGINE)
        fresh = {"session": engine.SessionStore(session_key)}
        user = get_user.func(fresh)  # Django's checks: the session exists, its hash holds
        return getattr(user, "pk", None) == user_id
    finally:
        close_old_connections()


_ON_SQLITE = settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3"
_credential_check = database_sync_to_async(_credential_holds, thread_sensitive=_ON_SQLITE)


# -- the consumers' side ------------------------------------------------------------------


class GuardedSocket(ReleasesChannel):
    """Mixed into every websocket consumer in place of ReleasesChannel. The consumer
    calls :meth:`admit` after ``accept()`` in its ``connect`` (and returns when it says
    no), and :meth:`credential_holds` before the socket acts. ``socket_kind`` names what
    is counted (:data:`NOUNS`)."""

    socket_kind = "echo"
    guard_user_id: int | None = None
    guard_member: str | None = None
    auth_at = 0.0

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
        self.auth_at = float(scope.get("auth_at") or 0.0)
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
        return True

    async def _give_back(self) -> None:
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
        """Before the socket acts: True unless its credential was revoked since it signed
        in (then the socket is told so and closed). One Redis read; the database only
        when a revocation happened since."""
        user_id = self.guard_user_id
        if user_id is None:
            return True
        try:
            revoked = await store().revoked_at(user_id)
        except Exception:
            log.warning("could not read revocations; checking the credential", exc_info=True)
            revoked = math.inf
        if revoked is None or revoked < self.auth_at - CLOCK_SKEW:
            return True
        began = time.time()
        if await _credential_check(self.scope, user_id):  # type: ignore[attr-defined]
            self.auth_at = began
            return True
        await self.user_revoked({"text": frame("signed_out", str(SIGNED_OUT))})
        return False

    async def user_revoked(self, event: dict[str, Any]) -> None:
        """His credentials were revoked: say so, and close."""
        await self.send(text_data=event["text"])  # type: ignore[attr-defined]
        await self.close(CLOSE_SIGNED_OUT)  # type: ignore[attr-defined]

    async def user_notified(self, event: dict[str, Any]) -> None:
        """A notification for the notification area's socket; others let it pass."""
