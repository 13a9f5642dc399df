"""A websocket round trip through the Redis channel layer (real Redis)."""

import asyncio
import uuid
from typing import Any

import pytest
import redis.asyncio
from channels.exceptions import StopConsumer
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator

from config.asgi import application
from config.routing import websocket_urlpatterns
from core.echo import EchoConsumer
from core.realtime import ReleasesChannel
from tests.integration.conftest import redis_layer

pytestmark = [pytest.mark.integration, pytest.mark.asyncio]

ORIGIN = [(b"origin", b"http://127.0.0.1:8000")]


@pytest.fixture
def redis_channel_layer(settings, redis_url):
    settings.CHANNEL_LAYERS = redis_layer(redis_url, prefix=f"test-{uuid.uuid4().hex[:8]}")


@pytest.mark.usefixtures("redis_channel_layer")
async def test_websocket_echo_crosses_the_redis_channel_layer():
    layer = get_channel_layer()
    assert type(layer).__name__ == "RedisPubSubChannelLayer"
    sender = WebsocketCommunicator(application, "/ws/echo/", headers=ORIGIN)
    listener = WebsocketCommunicator(application, "/ws/echo/", headers=ORIGIN)
    assert (await sender.connect())[0]
    assert (await listener.connect())[0]

    await sender.send_json_to({"type": "echo", "payload": {"card": "TH"}})

    expected = {"type": "echo", "payload": {"card": "TH"}, "from": None}
    assert await listener.receive_json_from(timeout=5) == expected
    assert await sender.receive_json_from(timeout=5) == expected
    await sender.disconnect()
    await listener.disconnect()
    await layer.flush()


@pytest.mark.usefixtures("redis_channel_layer")
async def test_group_message_from_outside_a_consumer_reaches_the_websocket():
    """What a Celery task or another ASGI process does: group_send into Redis."""
    layer = get_channel_layer()
    client = WebsocketCommunicator(application, "/ws/echo/", headers=ORIGIN)
    assert (await client.connect())[0]

    await layer.group_send("echo", {"type": "echo.message", "payload": 1000, "from": "server"})

    assert await client.receive_json_from(timeout=5) == {
        "type": "echo",
        "payload": 1000,
        "from": "server",
    }
    await client.disconnect()
    await layer.flush()


class _EndsWithMessagesWaiting(EchoConsumer):
    """An echo socket that, as it disconnects, is sent two messages on its own channel
    and lets them arrive: its waiting ``receive`` returns the first, so the consumer ends
    with no ``receive`` left to cancel (what a table's last update and the player's
    leaving read in the same turn of the loop do at the end of a match)."""

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        layer = get_channel_layer()._get_layer()
        for payload in (1, 2):
            await self.channel_layer.send(
                self.channel_name, {"type": "echo.message", "payload": payload, "from": None}
            )
        for _ in range(500):
            if layer.channels[self.channel_name].qsize() >= 1:
                break  # both are here, and the first was taken by the receive
            await asyncio.sleep(0.01)
        await super().websocket_disconnect(message)


async def _subscribed(redis_url: str, prefix: str) -> list[bytes]:
    client = redis.asyncio.Redis.from_url(redis_url)
    try:
        return await client.pubsub_channels(f"{prefix}*")
    finally:
        await client.aclose()


async def _open_and_close(consumer: type[EchoConsumer], settings: Any, redis_url: str) -> str:
    """One socket of ``consumer`` through a Redis layer of its own, opened and closed;
    returns the layer's prefix."""
    prefix = f"test-{uuid.uuid4().hex[:8]}"
    settings.CHANNEL_LAYERS = redis_layer(redis_url, prefix=prefix)
    client = WebsocketCommunicator(consumer.as_asgi(), "/ws/echo/")
    assert (await client.connect())[0]
    await client.disconnect()
    return prefix


async def test_a_socket_that_ends_with_messages_waiting_leaves_no_channel_behind(
    settings, redis_url
):
    prefix = await _open_and_close(_EndsWithMessagesWaiting, settings, redis_url)

    layer = get_channel_layer()._get_layer()
    assert (layer.channels, await _subscribed(redis_url, prefix)) == ({}, [])
    await get_channel_layer().flush()


class _EndsWithoutDisconnect(EchoConsumer):
    """An echo socket whose consumer ends without running its ``disconnect`` (and so
    without leaving the group it joined)."""

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        raise StopConsumer()


async def test_a_socket_that_ends_without_its_disconnect_leaves_no_group_behind(
    settings, redis_url
):
    prefix = await _open_and_close(_EndsWithoutDisconnect, settings, redis_url)

    layer = get_channel_layer()._get_layer()
    assert (layer.groups, await _subscribed(redis_url, prefix)) == ({}, [])
    await get_channel_layer().flush()


async def test_every_websocket_consumer_releases_its_channel():
    consumers = {route.callback.consumer_class for route in websocket_urlpatterns}
    assert {c.__name__ for c in consumers if not issubclass(c, ReleasesChannel)} == set()
