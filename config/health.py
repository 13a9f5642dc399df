"""Health checks of the parts the service needs: database, channel layer, broker.

Each check returns ``{"ok": bool, ...}`` and never raises; ``/healthz`` answers 503 when
any check is not ok. Load balancers poll it, so a healthy answer must be cheap: the
checks run concurrently, the database check uses the connection pool, and Redis (behind
the channel layer and the broker) is asked for a PING over a connection kept per event
loop, not reached through a new connection or a pub/sub round trip each time. When a
service is down each check gives up after ``TIMEOUT_SECONDS``.
"""

import asyncio
import contextlib
import math
import os
import time
import uuid
import weakref
from typing import Any

import redis.asyncio as aioredis
from asgiref.sync import sync_to_async
from channels.layers import BaseChannelLayer, get_channel_layer
from django.conf import settings
from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from config.celery import app as celery_app

TIMEOUT_SECONDS = 1.0
REDIS_LAYERS = (
    "channels_redis.core.RedisChannelLayer",
    "channels_redis.pubsub.RedisPubSubChannelLayer",
)

# One small client per (event loop, Redis URL): a connection belongs to the loop that
# opened it, and tests run many loops. Weak keys let a closed loop's clients go.
_redis_clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, aioredis.Redis]] = (
    weakref.WeakKeyDictionary()
)


def _failure(exc: BaseException) -> dict[str, Any]:
    message = str(exc) or f"no answer within {TIMEOUT_SECONDS} s"
    return {"ok": False, "error": f"{type(exc).__name__}: {message}"[:300]}


def check_database(connection: BaseDatabaseWrapper | None = None) -> dict[str, Any]:
    connection = connection or connections["default"]
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:
        return _failure(exc)
    return {"ok": True, "vendor": connection.vendor}


def redis_client_name() -> str:
    """How the check's connections show in Redis' CLIENT LIST."""
    return f"thousand-healthz-{os.getpid()}"


def _redis(url: str) -> aioredis.Redis:
    clients = _redis_clients.setdefault(asyncio.get_running_loop(), {})
    if url not in clients:
        clients[url] = aioredis.Redis.from_url(
            url,
            socket_connect_timeout=TIMEOUT_SECONDS,
            socket_timeout=TIMEOUT_SECONDS,
            retry=Retry(NoBackoff(), 0),
            max_connections=4,
            client_name=redis_client_name(),
        )
    return clients[url]


async def ping_redis(url: str) -> None:
    """PING the Redis at ``url``; raises when it does not answer in time."""
    # redis-py drops a connection whose command was cut short, so none is left half-read.
    async with asyncio.timeout(TIMEOUT_SECONDS):
        await _redis(url).ping()


def _redis_layer_url() -> str | None:
    layers: dict[str, Any] = getattr(settings, "CHANNEL_LAYERS", {})
    layer = layers.get("default", {})
    if layer.get("BACKEND") not in REDIS_LAYERS:
        return None
    host = layer.get("CONFIG", {}).get("hosts", [None])[0]
    if isinstance(host, dict):
        host = host.get("address")
    return host if isinstance(host, str) else None


async def check_channel_layer(layer: BaseChannelLayer | None = None) -> dict[str, Any]:
    """The configured Redis layer: PING its Redis. Any other: a message to itself and back."""
    url = _redis_layer_url() if layer is None else None
    layer = layer or get_channel_layer()
    if layer is None:
        return {"ok": False, "error": "no channel layer configured"}
    backend = type(layer).__name__
    try:
        if url is not None:
            await ping_redis(url)
        else:
            await _round_trip(layer)
    except Exception as exc:
        return {"backend": backend, **_failure(exc)}
    return {"ok": True, "backend": backend}


async def _round_trip(layer: BaseChannelLayer) -> None:
    async with asyncio.timeout(TIMEOUT_SECONDS):
        channel = await layer.new_channel("healthz.")
        token = uuid.uuid4().hex
        await layer.send(channel, {"type": "healthz.ping", "token": token})
        message = await layer.receive(channel)
        await _forget_channel(layer, channel)
    if message.get("token") != token:
        raise RuntimeError("a different message came back")


async def _forget_channel(layer: BaseChannelLayer, channel: str) -> None:
    """Drop the probe channel: layers clean up a channel whose receive is cancelled."""
    pending = asyncio.ensure_future(layer.receive(channel))
    await asyncio.sleep(0)
    pending.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await pending


async def check_broker() -> dict[str, Any]:
    if celery_app.conf.task_always_eager:
        return {"ok": True, "mode": "eager"}
    url = str(celery_app.conf.broker_url or "")
    try:
        if url.startswith(("redis://", "rediss://", "unix://")):
            await ping_redis(url)
            transport = "redis"
        else:
            transport = await sync_to_async(_connect_broker, thread_sensitive=False)()
    except Exception as exc:
        return _failure(exc)
    return {"ok": True, "mode": "broker", "transport": transport}


def _connect_broker() -> str:
    """Any other broker: open a connection through kombu, as a worker would."""
    with celery_app.connection_for_write() as conn:
        conn.ensure_connection(
            max_retries=1, interval_start=0, interval_step=1, timeout=math.ceil(TIMEOUT_SECONDS)
        )
        return str(conn.transport_cls)


async def _check_database_in_time() -> dict[str, Any]:
    # The request's own thread for Django code, so its pooled connection is handed back
    # when the request ends; the pool may wait longer than we do for a dead server.
    try:
        async with asyncio.timeout(TIMEOUT_SECONDS):
            return await sync_to_async(check_database, thread_sensitive=True)()
    except TimeoutError as exc:
        return _failure(exc)


async def health_report() -> dict[str, Any]:
    started = time.monotonic()
    database, channel_layer, broker = await asyncio.gather(
        _check_database_in_time(), check_channel_layer(), check_broker()
    )
    checks = {"database": database, "channel_layer": channel_layer, "broker": broker}
    healthy = all(check["ok"] for check in checks.values())
    return {
        "status": "ok" if healthy else "fail",
        "checks": checks,
        "took_ms": round((time.monotonic() - started) * 1000, 1),
    }
