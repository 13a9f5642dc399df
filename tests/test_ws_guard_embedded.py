"""core.ws_guard in the embedded default (one process, no Redis: the counts and the
revocation times in the process's memory, the in-memory channel layer): the caps and
the closing on a revocation work there too. The full stack's are proven through real
servers in tests/games/test_ws_guard.py."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from rest_framework.authtoken.models import Token

from accounts.services import token_revoke
from config.asgi import application
from core import ws_guard
from tests.factories import UserFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

ORIGIN = (b"origin", b"http://127.0.0.1:8000")


@pytest.fixture(autouse=True)
def embedded(settings, monkeypatch):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    settings.GAMES_WS_MAX_PER_USER = 2
    monkeypatch.setattr(ws_guard, "_store", ws_guard._Local())


def lobby(key: str) -> WebsocketCommunicator:
    headers = [ORIGIN, (b"authorization", f"Token {key}".encode())]
    return WebsocketCommunicator(application, "/ws/lobby/", headers=headers)


async def test_the_cap_holds_and_a_closed_socket_gives_its_place_back():
    user = await sync_to_async(UserFactory)()
    key = (await sync_to_async(Token.objects.create)(user=user)).key
    held = [lobby(key) for _ in range(2)]
    for socket in held:
        assert (await socket.connect())[0]
    extra = lobby(key)
    await extra.connect()
    refused = await extra.receive_json_from(timeout=3)
    closed = await extra.receive_output(timeout=3)
    await held.pop().disconnect()
    again = lobby(key)
    await again.connect()
    quiet = await again.receive_nothing(timeout=0.3)
    for socket in [*held, again]:
        await socket.disconnect()

    assert refused["code"] == "too_many_connections" and closed["code"] == 4429
    assert quiet


async def test_revoking_the_token_closes_its_sockets():
    user = await sync_to_async(UserFactory)()
    key = (await sync_to_async(Token.objects.create)(user=user)).key
    socket = lobby(key)
    assert (await socket.connect())[0]

    await sync_to_async(token_revoke)(user=user)

    assert (await socket.receive_json_from(timeout=3))["code"] == "signed_out"
    assert (await socket.receive_output(timeout=3)) == {"type": "websocket.close", "code": 4401}
