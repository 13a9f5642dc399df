"""A websocket round trip through the Redis channel layer (real Redis)."""

import uuid

import pytest
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator

from config.asgi import application
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
