"""Health checks of the parts the service needs: database, channel layer, broker.

Each check returns ``{"ok": bool, ...}`` and never raises; ``/healthz`` answers 503 when
any check is not ok.
"""

import asyncio
import contextlib
import time
import uuid
from typing import Any

from asgiref.sync import sync_to_async
from channels.layers import BaseChannelLayer, get_channel_layer
from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper

from config.celery import app as celery_app

TIMEOUT_SECONDS = 3


def _failure(exc: BaseException) -> dict[str, Any]:
    return {"ok": False, "error": f"{type(exc).__name__}: {exc}"[:300]}


def check_database(connection: BaseDatabaseWrapper | None = None) -> dict[str, Any]:
    connection = connection or connections["default"]
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:
        return _failure(exc)
    return {"ok": True, "vendor": connection.vendor}


async def check_channel_layer(layer: BaseChannelLayer | None = None) -> dict[str, Any]:
    """Send a message to a fresh channel of the layer and read it back."""
    layer = layer or get_channel_layer()
    if layer is None:
        return {"ok": False, "error": "no channel layer configured"}
    backend = type(layer).__name__
    try:
        async with asyncio.timeout(TIMEOUT_SECONDS):
            channel = await layer.new_channel("healthz.")
            token = uuid.uuid4().hex
            await layer.send(channel, {"type": "healthz.ping", "token": token})
            message = await layer.receive(channel)
            await _forget_channel(layer, channel)
    except Exception as exc:
        return {"backend": backend, **_failure(exc)}
    if message.get("token") != token:
        return {"ok": False, "backend": backend, "error": "a different message came back"}
    return {"ok": True, "backend": backend}


async def _forget_channel(layer: BaseChannelLayer, channel: str) -> None:
    """Drop the probe channel: layers clean up a channel whose receive is cancelled."""
    pending = asyncio.ensure_future(layer.receive(channel))
    await asyncio.sleep(0)
    pending.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await pending


def check_broker() -> dict[str, Any]:
    if celery_app.conf.task_always_eager:
        return {"ok": True, "mode": "eager"}
    try:
        with celery_app.connection_for_write() as conn:
            conn.ensure_connection(
                max_retries=1, interval_start=0, interval_step=1, timeout=TIMEOUT_SECONDS
            )
            transport = conn.transport_cls
    except Exception as exc:
        return _failure(exc)
    return {"ok": True, "mode": "broker", "transport": str(transport)}


async def health_report() -> dict[str, Any]:
    started = time.monotonic()
    checks = {
        "database": await sync_to_async(check_database, thread_sensitive=True)(),
        "channel_layer": await check_channel_layer(),
        "broker": await sync_to_async(check_broker, thread_sensitive=False)(),
    }
    healthy = all(check["ok"] for check in checks.values())
    return {
        "status": "ok" if healthy else "fail",
        "checks": checks,
        "took_ms": round((time.monotonic() - started) * 1000, 1),
    }
