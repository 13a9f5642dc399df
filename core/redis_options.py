"""How every pooled Redis connection of the site behaves when Redis restarts (it keeps no
data, and every connection in every pool is then dead): docs/reliability.md "Redis".

A pool hands out a connection it made earlier. Without these options redis-py sends a
command on it as it is and raises the ``ConnectionError`` at once (``from_url`` and
channels-redis's pools get no retry at all): the first websocket handshake on a process
after a restart was a 500, its channel's ``SUBSCRIBE`` written to the dead connection.
With them a command that fails to connect, write or read is sent again on a fresh
connection (three times, 0.05 s, 0.1 s, 0.2 s apart), and a connection idle for longer
than ``health_check_interval`` seconds is checked with a ``PING`` before it is used.

The synchronous and the asyncio clients take different ``Retry`` classes: ask for the
right one (``asyncio=True`` for redis.asyncio and channels-redis).
"""

from __future__ import annotations

from typing import Any

import redis.asyncio.retry
import redis.retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError, TimeoutError

RETRIES = 3
HEALTH_CHECK_SECONDS = 15


def redis_options(*, asyncio: bool = False) -> dict[str, Any]:
    """Keyword arguments for a Redis client or connection pool (``Redis.from_url``,
    ``ConnectionPool.from_url``, a channels-redis host, a Django cache's ``OPTIONS``)."""
    backoff = ExponentialBackoff(cap=0.5, base=0.025)
    retry: redis.retry.Retry | redis.asyncio.retry.Retry = (
        redis.asyncio.retry.Retry(backoff, RETRIES)
        if asyncio
        else redis.retry.Retry(backoff, RETRIES)
    )
    return {
        "retry": retry,
        "retry_on_error": [ConnectionError, TimeoutError],
        "health_check_interval": HEALTH_CHECK_SECONDS,
    }
