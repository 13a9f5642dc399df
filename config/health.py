"""Health checks of the parts the service needs: database, channel layer, broker, and
the Celery worker and beat that run bot turns, clocks and results.

Each check returns ``{"ok": bool, ...}`` and never raises; ``/healthz`` answers 503 when
any check is not ok. Load balancers poll it, so a healthy answer must be cheap: the
checks run concurrently, the database check uses the connection pool, and Redis (behind
the channel layer and the broker) is asked for a PING over a connection kept per event
loop, not reached through a new connection or a pub/sub round trip each time. When a
service is down each check gives up after ``TIMEOUT_SECONDS``, and the answer comes
within about that whatever is down: the database is asked from threads of the checks'
own, never from the request's thread (Django's synchronous middleware would wait for a
thread stuck on a dead server before sending the answer).

Worker and beat (the full stack's scheduler): every periodic task records when it last
ran (``config.celery``); ``/healthz`` reads those times in one round trip and says
degraded when one is older than ``HEARTBEAT_STALE_SECONDS`` (or three of its intervals).
Only then does it ping the workers (``PING_SECONDS``), to say which part is missing.
In the same round trip it reads the bots' queue delay: how long the oldest bot turn due
has waited for a worker process (``games.bot_queue``); over ``BOTS_QUEUE_DELAY_LIMIT``
the scheduler check is not ok (degraded: the bots' pool is overloaded).
"""

import asyncio
import contextlib
import math
import os
import threading
import time
import uuid
import weakref
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import redis.asyncio as aioredis
from asgiref.sync import sync_to_async
from channels.layers import BaseChannelLayer, get_channel_layer
from django.conf import settings
from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from config.celery import HEARTBEAT_KEY, heartbeat_names
from config.celery import app as celery_app
from games import bot_queue

TIMEOUT_SECONDS = 1.0
HEARTBEAT_STALE_SECONDS = 10.0
PING_SECONDS = 0.5
# A bot turn due this long and not taken yet: the bots' worker pool is overloaded (the
# clock sweep starts playing such turns itself after GAMES_BOT_GRACE, 10 s).
BOTS_QUEUE_DELAY_LIMIT = 10.0
# Threads that ask the database. A check stuck on a server that does not answer keeps
# its thread; when all are stuck, the next check fails at once instead of queueing.
DATABASE_THREADS = 2
_database_executor = ThreadPoolExecutor(DATABASE_THREADS, thread_name_prefix="healthz-db")
_database_slots = threading.BoundedSemaphore(DATABASE_THREADS)
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
    """``SELECT 1``: through the connection pool when there is one, waiting for a pooled
    connection at most ``TIMEOUT_SECONDS``; else on ``connection``, closed afterwards."""
    connection = connection or connections["default"]
    pool = getattr(connection, "pool", None)  # Django's psycopg pool, if configured
    try:
        if pool is not None:
            pool.open()  # as Django does before its first connection; a no-op once open
            with pool.connection(timeout=TIMEOUT_SECONDS * 0.8) as conn:  # its own error, in time
                conn.execute("SELECT 1").fetchone()
        else:
            try:
                with connection.cursor() as cursor:
                    cursor.execute("SELECT 1")
                    cursor.fetchone()
            finally:
                if connection is connections["default"]:
                    connection.close()  # this thread's own: nothing else would close it
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


def _check_database_in_slot() -> dict[str, Any]:
    try:
        return check_database()
    finally:
        _database_slots.release()


async def _check_database_in_time() -> dict[str, Any]:
    if not _database_slots.acquire(blocking=False):
        return _failure(RuntimeError("the previous checks are still waiting for the database"))
    future = asyncio.get_running_loop().run_in_executor(_database_executor, _check_database_in_slot)
    try:
        async with asyncio.timeout(TIMEOUT_SECONDS):
            return await asyncio.shield(future)  # the thread goes on; its slot comes back
    except TimeoutError as exc:
        return _failure(exc)


def _heartbeat_limits() -> dict[str, float]:
    """Each periodic task: how old its last run may be."""
    intervals: dict[str, float] = {}
    for entry in (celery_app.conf.beat_schedule or {}).values():
        schedule = entry["schedule"]
        seconds = (
            schedule if isinstance(schedule, int | float) else schedule.run_every.total_seconds()
        )
        intervals[entry["task"]] = max(HEARTBEAT_STALE_SECONDS, 3 * float(seconds))
    return {name: intervals[name] for name in heartbeat_names()}


async def check_scheduler() -> dict[str, Any]:
    """Worker and beat: how long ago each periodic task last ran (full stack only)."""
    if settings.GAMES_SCHEDULER != "celery" or celery_app.conf.task_always_eager:
        return {"ok": True, "mode": str(settings.GAMES_SCHEDULER)}
    url = str(celery_app.conf.broker_url or "")
    if not url.startswith(("redis://", "rediss://", "unix://")):
        return {"ok": True, "mode": "celery", "heartbeats": "not kept on this broker"}
    limits = _heartbeat_limits()
    try:
        async with asyncio.timeout(TIMEOUT_SECONDS):
            pipe = _redis(url).pipeline(transaction=False)
            pipe.mget([HEARTBEAT_KEY.format(name=name) for name in limits])
            pipe.zrange(bot_queue.DUE_KEY, 0, 0, withscores=True)
            pipe.time()
            stamps, oldest, (seconds, micros) = await pipe.execute()
    except Exception as exc:
        return _failure(exc)
    now = time.time()
    ages = {
        name: (round(now - float(stamp), 1) if stamp else None)
        for name, stamp in zip(limits, stamps, strict=True)
    }
    stale = sorted(name for name, age in ages.items() if age is None or age > limits[name])
    # The oldest bot turn due and not taken yet, by Redis' clock (games.bot_queue).
    delay = bot_queue.queue_delay(oldest[0][1] if oldest else None, seconds + micros / 1e6)
    report: dict[str, Any] = {
        "ok": not stale and delay <= BOTS_QUEUE_DELAY_LIMIT,
        "mode": "celery",
        "last_run_seconds_ago": ages,
        "bots_queue_delay_seconds": delay,
    }
    if delay > BOTS_QUEUE_DELAY_LIMIT:
        report["error"] = (
            f"a bot turn has waited {delay:.1f} s in the bots' queue: the bots' pool is overloaded"
        )
    if stale:
        workers = await _ping_workers()
        if workers is None:
            missing = "the Celery workers could not be asked"
        elif not workers:
            missing = "no Celery worker answers"
        else:  # a pool of another queue, or beat
            missing = f"workers answering: {', '.join(workers)} (is beat running?)"
        report.update(workers=workers, error=f"{', '.join(stale)} did not run in time; {missing}")
    return report


async def _ping_workers() -> list[str] | None:
    """The workers that answer a ping within ``PING_SECONDS`` (None: could not ask)."""

    def ping() -> list[str]:
        return sorted(
            name for reply in celery_app.control.ping(timeout=PING_SECONDS) or [] for name in reply
        )

    try:
        async with asyncio.timeout(TIMEOUT_SECONDS):
            return await sync_to_async(ping, thread_sensitive=False)()
    except Exception:
        return None


def _status(checks: dict[str, dict[str, Any]]) -> str:
    """``ok``; ``degraded`` when only the worker or beat is missing (this web process still
    serves: a balancer should keep it); ``fail`` when the web's own services are down."""
    failed = {name for name, check in checks.items() if not check["ok"]}
    if not failed:
        return "ok"
    return "degraded" if failed == {"scheduler"} else "fail"


async def health_report() -> dict[str, Any]:
    started = time.monotonic()
    database, channel_layer, broker, scheduler = await asyncio.gather(
        _check_database_in_time(), check_channel_layer(), check_broker(), check_scheduler()
    )
    checks = {
        "database": database,
        "channel_layer": channel_layer,
        "broker": broker,
        "scheduler": scheduler,
    }
    return {
        "status": _status(checks),
        "checks": checks,
        "took_ms": round((time.monotonic() - started) * 1000, 1),
    }


@never_cache
async def healthz(request: HttpRequest) -> JsonResponse:
    """JSON status of the database, channel layer, broker and scheduler; 503 unless all are ok."""
    report = await health_report()
    return JsonResponse(report, status=200 if report["status"] == "ok" else 503)
