"""Channels' session authentication for websockets, with its database read (the session
and its user) in the event loop's thread pool instead of on the one thread-sensitive
database thread that Channels gives a whole process: a connect must not wait behind
every other connection's database calls (a hundred
sockets busy with ``sync`` would hold it for seconds)."""

from __future__ import annotations

from typing import Any

from channels.auth import AuthMiddleware, get_user
from channels.db import database_sync_to_async
from channels.sessions import CookieMiddleware, SessionMiddleware
from django.db import close_old_connections

from core.sockets import ON_SQLITE


def _user_of(scope: dict[str, Any]) -> Any:
    try:
        return get_user.func(scope)
    finally:
        close_old_connections()  # a pool thread returns its connection itself


# SQLite keeps the one thread (core.sockets.in_pool says why).
_user_in_pool = database_sync_to_async(_user_of, thread_sensitive=ON_SQLITE)


class PooledAuthMiddleware(AuthMiddleware):
    async def resolve_scope(self, scope: dict[str, Any]) -> None:
        # The user is read with his credential generation: what core.ws_guard checks
        # the socket against while it is open.
        scope["user"]._wrapped = await _user_in_pool(scope)


def PooledAuthMiddlewareStack(inner: Any) -> Any:
    return CookieMiddleware(SessionMiddleware(PooledAuthMiddleware(inner)))
