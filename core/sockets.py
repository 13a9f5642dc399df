"""What every websocket consumer shares: database calls on the event loop's thread pool,
a rate bucket, and the close codes the pages know (``static/js/socket.js``)."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import close_old_connections

CLOSE_NOT_FOUND = 4404
CLOSE_FORBIDDEN = 4403
CLOSE_ABUSE = 1008  # policy violation


ON_SQLITE = settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3"


def in_pool[T](fn: Callable[..., T]) -> Callable[..., Awaitable[T]]:
    """``fn`` through ``database_sync_to_async`` on the event loop's thread pool, not on
    the one thread that Channels gives every database call of a process by default: a
    call then never queues behind every other connection's round trips to PostgreSQL
    (docs/benchmarks.md: more actions a second, and a connect or a state read no longer
    waits behind a hundred sockets sending ``sync``).

    SQLite (the embedded default) keeps the one thread: it serialises writers anyway, and
    its in-memory test database refuses another thread's read or write instead of
    waiting."""

    def call(*args: Any, **kwargs: Any) -> T:
        try:
            return fn(*args, **kwargs)
        finally:
            # Inside the call: database_sync_to_async's own clean-up runs outside the
            # call's context and, for a pool thread, did not always see its connection
            # (the pool ran dry in the consumer tests).
            close_old_connections()

    return database_sync_to_async(call, thread_sensitive=ON_SQLITE)


class RateLimit:
    """A token bucket: ``rate`` messages a second, bursts of ``burst``. An applied
    action gives its token back: the turn order already bounds those, and a fast
    automated player must not be throttled for playing well."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def refund(self) -> None:
        self.tokens = min(self.burst, self.tokens + 1)
