"""Sending to the websockets of a table through the channel layer.

Every seat has its own group and spectators share one, so a message meant for one seat
never reaches another seat's connection, not even inside the channel layer. Payloads are
serialised once, in the service, and consumers forward the text as it is.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterable

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer

LOBBY_GROUP = "lobby"


def seat_group(table_id: int, seat: int | None) -> str:
    return f"table.{table_id}.spectators" if seat is None else f"table.{table_id}.seat{seat}"


def send(messages: Iterable[tuple[str, str]], kind: str = "table.message") -> None:
    """Send ``(group, json text)`` pairs; callable from synchronous code (a service's
    ``on_commit``, a Celery task). ``kind`` names the consumers' handler:
    ``table.message`` forwards the text, ``table.refresh`` makes each connection send
    its own full state again."""
    batch = list(messages)
    if not batch:
        return
    if getattr(SyncToAsync.threadlocal, "main_event_loop", None) is not None:
        # Called from a server's worker thread: send on the server's own loop.
        async_to_sync(send_async)(batch, kind)
    else:
        # A Celery worker or a plain thread: one long-lived loop per process, so the
        # channel layer keeps its Redis connections (a new loop per call costs ~20 ms).
        future = asyncio.run_coroutine_threadsafe(send_async(batch, kind), _publisher_loop())
        future.result(timeout=30)


async def send_async(messages: list[tuple[str, str]], kind: str = "table.message") -> None:
    layer = get_channel_layer()
    assert layer is not None
    for group, text in messages:
        await layer.group_send(group, {"type": kind, "text": text})


_publisher: asyncio.AbstractEventLoop | None = None
_publisher_lock = threading.Lock()


def _publisher_loop() -> asyncio.AbstractEventLoop:
    global _publisher
    with _publisher_lock:
        if _publisher is None or _publisher.is_closed():
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="games-publisher", daemon=True).start()
            _publisher = loop
        return _publisher
