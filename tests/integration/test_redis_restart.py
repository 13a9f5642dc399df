"""Websockets across a restart of Redis, which keeps no data (a Redis of the test's own,
stopped and started again; real servers, PostgreSQL and websockets):

* a revocation made while Redis is away still closes the player's open sockets: it
  lives in PostgreSQL (the account's credential generation), not in a Redis key or a
  channel-layer message that the restart loses;
* the first sockets opened on a server right after Redis is back are let in: the
  server's pooled Redis connections, all dead, are checked or retried, not used as
  they were.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings

from config.asgi import application
from games import services
from tests.factories import UserFactory
from tests.games.helpers import current
from tests.games.test_servers import Process, tokens_for, wait_for_port
from tests.games.test_servers import stack_env as stack_env
from tests.games.test_ws_guard import connect, settled, started_for_one, state_of
from tests.integration.processes import RedisServer, free_port, wait_until

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(240),
]

TIMEOUT = 20
ORIGIN_HEADER = [(b"origin", b"http://127.0.0.1:8000")]


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def server(stack_env: dict[str, str], own_redis: RedisServer) -> Iterator[int]:
    """One web server on the test's own Redis (and the suite's PostgreSQL)."""
    port = free_port()
    env = {
        **stack_env,
        "REDIS_URL": own_redis.url,
        "CELERY_BROKER_URL": own_redis.url,
        # The suite's secret key: the server must accept what the tests sign.
        "DJANGO_SECRET_KEY": django_settings.SECRET_KEY,
        # A socket checks its credential before every action (and twice a second):
        # what it answers then does not depend on when its last check was.
        "GAMES_WS_CREDENTIAL_SECONDS": "0",
    }
    process = Process(
        [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
         "--port", str(port), "--no-access-log", "--lifespan", "on"],
        env,
    )  # fmt: skip
    try:
        wait_for_port(port, timeout=120)  # a loaded machine starts it slowly
        yield port
    finally:
        process.kill()


def token_delete(port: int, token: str) -> tuple[int, int]:
    """``DELETE /api/v1/auth/token/`` with the token, then a read with it: both statuses."""
    statuses = []
    for method in ("DELETE", "GET"):
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/v1/tables/",
            method=method,
            headers={"Authorization": f"Token {token}"},
        )
        if method == "DELETE":
            request.full_url = f"http://127.0.0.1:{port}/api/v1/auth/token/"
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
                statuses.append(response.status)
        except urllib.error.HTTPError as exc:
            statuses.append(exc.code)
    return statuses[0], statuses[1]


async def answer(ws: Any, message: dict[str, Any]) -> str:
    """Send ``message``; ``"ack"`` when the server acted on it, else the code of the error
    it was sent (``"closed <code>"`` when it closed without one). A socket the server had
    already closed says why it was closed."""
    with contextlib.suppress(websockets.ConnectionClosed):
        await ws.send(json.dumps(message))
    try:
        while True:
            reply = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
            if reply["type"] in ("ack", "error"):
                return str(reply.get("code") or "ack")
    except websockets.ConnectionClosed:
        return f"closed {ws.close_code}"


@pytest.mark.slow(seconds=25)
def test_a_token_revoked_while_redis_is_away_closes_the_old_table_and_club_sockets(
    server: int, own_redis: RedisServer
) -> None:
    user = UserFactory()
    table = started_for_one(user)
    (token,) = tokens_for([user])

    async def run() -> tuple[tuple[int, int], list[str]]:
        seated = await connect(server, f"/ws/tables/{table.pk}/", token)
        social = await connect(server, f"/ws/social/?table={table.pk}", token)
        version = (await state_of(seated))["version"]
        await settled(social, "social")
        own_redis.stop()
        statuses = await asyncio.to_thread(token_delete, server, token)
        own_redis.start()
        pass_ = {"type": "action", "id": "a1", "version": version, "action": {"type": "pass"}}
        say = {"type": "say", "id": "s1", "text": "still here"}
        return statuses, [await answer(seated, pass_), await answer(social, say)]

    statuses, answers = asyncio.run(run())
    assert statuses == (204, 401)
    assert answers == ["signed_out", "signed_out"]
    assert current(table).version == 0


@pytest.mark.slow(seconds=25)
def test_sockets_opened_at_once_after_redis_restarts_are_let_in(
    server: int, own_redis: RedisServer
) -> None:
    """The server's connections to Redis are made by a first round of sockets, which
    close; Redis restarts; twenty-eight sockets then open together (most of them anonymous
    lobby sockets, whose handshake reads nothing from the database before it subscribes)."""
    user = UserFactory()
    table = services.table_create(user=user, players=3)
    (token,) = tokens_for([user])
    paths = {
        "table": f"/ws/tables/{table.pk}/",
        "lobby": "/ws/lobby/",
        "social": f"/ws/social/?table={table.pk}",
        "notifications": "/ws/notifications/",
    }

    async def opened(path: str, signed_in: bool = True) -> str:
        try:
            ws = await connect(server, path, token if signed_in else None)
        except websockets.InvalidStatus as exc:
            return f"refused {exc.response.status_code}"
        await ws.close()
        return "open"

    async def run() -> list[str]:
        for kind, path in paths.items():
            ws = await connect(server, path, token)
            await settled(ws, kind)
            await ws.close()
        # Until the server has given back every channel: its pub/sub connection idles.
        released = await asyncio.to_thread(
            wait_until, lambda: not own_redis.client().pubsub_channels(), TIMEOUT
        )
        assert released
        own_redis.stop()
        own_redis.start()
        signed_in = [opened(path) for path in paths.values()]
        anonymous = [opened("/ws/lobby/", signed_in=False) for _ in range(24)]
        return list(await asyncio.gather(*anonymous, *signed_in))

    assert asyncio.run(run()) == ["open"] * (24 + len(paths))


@pytest.mark.asyncio
async def test_sockets_opened_together_right_after_redis_restarts_each_get_their_channel(
    settings: Any, redis_url: str, own_redis: RedisServer
) -> None:
    """The same in this process, with the channel layer exactly as the settings make it
    (pointed at the test's own Redis): the sockets' handshakes reach the layer together,
    so the second channel's ``SUBSCRIBE`` always meets the connection the first one found
    dead."""
    layer_config = settings.CHANNEL_LAYERS["default"]
    assert layer_config["BACKEND"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    hosts = [{**host, "address": own_redis.url} for host in layer_config["CONFIG"]["hosts"]]
    settings.CHANNEL_LAYERS = {
        "default": {**layer_config, "CONFIG": {**layer_config["CONFIG"], "hosts": hosts}}
    }

    def lobby() -> WebsocketCommunicator:
        return WebsocketCommunicator(application, "/ws/lobby/", headers=ORIGIN_HEADER)

    first = lobby()
    assert (await first.connect())[0]
    await first.disconnect()
    released = await asyncio.to_thread(
        wait_until, lambda: not own_redis.client().pubsub_channels(), TIMEOUT
    )
    assert released
    own_redis.stop()
    own_redis.start()

    sockets = [lobby() for _ in range(4)]
    outcomes = await asyncio.gather(*(ws.connect() for ws in sockets), return_exceptions=True)
    for ws, outcome in zip(sockets, outcomes, strict=True):
        if not isinstance(outcome, BaseException):
            await ws.disconnect()
    await get_channel_layer().flush()

    assert [o if isinstance(o, BaseException) else o[0] for o in outcomes] == [True] * 4
