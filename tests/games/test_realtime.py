"""Publishing a table's messages from a server process (core/realtime.py): through the
Redis channel layer, in commit order, and what must wait for them does."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from core import realtime
from tests.integration.conftest import redis_layer

pytestmark = [pytest.mark.asyncio, pytest.mark.integration]


@pytest.fixture(autouse=True)
def _redis_channel_layer(settings: Any, redis_url: str) -> None:
    settings.CHANNEL_LAYERS = redis_layer(redis_url, prefix=f"test-{uuid.uuid4().hex[:8]}")


async def received(channel: str, count: int) -> list[str]:
    layer = get_channel_layer()
    texts = []
    for _ in range(count):
        message = await asyncio.wait_for(layer.receive(channel), 5)
        texts.append(message["text"])
    return texts


async def test_messages_sent_from_a_worker_thread_arrive_in_the_order_sent() -> None:
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add("table.1.seat0", channel)

    def commit_three_actions() -> None:
        for version in (1, 2, 3):
            realtime.send([("table.1.seat0", f"v{version}"), ("table.1.spectators", f"v{version}")])

    await sync_to_async(commit_three_actions)()
    assert await received(channel, 3) == ["v1", "v2", "v3"]


async def test_what_waits_for_the_messages_runs_after_they_are_published(monkeypatch: Any) -> None:
    order: list[str] = []
    publish = realtime.publish

    async def recording(batch: list[realtime.Message]) -> None:
        await publish(batch)
        order.extend(text for _, _, text, _ in batch)

    monkeypatch.setattr(realtime, "publish", recording)

    def commit() -> None:
        realtime.send([("table.2.seat0", "update")])
        realtime.after_sent(lambda: order.append("bot's turn scheduled"))
        realtime.send([("table.2.seat0", "next update")])

    await sync_to_async(commit)()
    for _ in range(200):
        if len(order) == 3:
            break
        await asyncio.sleep(0.01)
    assert order == ["update", "bot's turn scheduled", "next update"]
