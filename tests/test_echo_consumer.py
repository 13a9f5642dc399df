"""The websocket stack with the embedded (in-memory) channel layer."""

import pytest
from channels.testing import WebsocketCommunicator

from config.asgi import application

ORIGIN = [(b"origin", b"http://127.0.0.1:8000")]


@pytest.fixture
def in_memory_layer(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


@pytest.mark.asyncio
@pytest.mark.usefixtures("in_memory_layer")
async def test_echo_reaches_every_connected_client():
    first = WebsocketCommunicator(application, "/ws/echo/", headers=ORIGIN)
    second = WebsocketCommunicator(application, "/ws/echo/", headers=ORIGIN)
    assert (await first.connect())[0]
    assert (await second.connect())[0]

    await first.send_json_to({"type": "echo", "payload": "hello"})

    expected = {"type": "echo", "payload": "hello", "from": None}
    assert await first.receive_json_from(timeout=3) == expected
    assert await second.receive_json_from(timeout=3) == expected
    await first.disconnect()
    await second.disconnect()


@pytest.mark.asyncio
@pytest.mark.usefixtures("in_memory_layer")
async def test_malformed_message_gets_a_typed_error():
    client = WebsocketCommunicator(application, "/ws/echo/", headers=ORIGIN)
    await client.connect()

    await client.send_json_to(["not", "an", "object"])

    assert (await client.receive_json_from(timeout=3))["type"] == "error"
    await client.disconnect()


@pytest.mark.asyncio
@pytest.mark.usefixtures("in_memory_layer")
async def test_websocket_from_a_foreign_origin_is_refused():
    client = WebsocketCommunicator(
        application, "/ws/echo/", headers=[(b"origin", b"http://evil.example")]
    )

    connected, _ = await client.connect()

    assert not connected
