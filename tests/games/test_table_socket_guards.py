"""The table websocket under a hostile or unlucky client, through a real server
(uvicorn, PostgreSQL, Redis):

* a socket plays and sees only the seat its *user* holds now, even when the message
  about the seats never reached it (dropped here on purpose);
* sockets are capped per person and per address, and messages are rate-limited per
  person across his sockets as well as per socket;
* deeply nested JSON is ``malformed``, and the socket stays up;
* an anonymous spectator's ``seed``, and ``action`` messages without an action object,
  get the documented codes.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
import websockets
from channels.db import database_sync_to_async
from django.conf import settings as django_settings

from games import realtime, services
from games.models import Table
from tests.factories import UserFactory
from tests.games.helpers import current
from tests.games.test_servers import ORIGIN, free_port, serve, tokens_for
from tests.games.test_servers import stack_env as stack_env
from tests.integration.conftest import redis_layer

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(240),
]

TIMEOUT = 20


@pytest.fixture
def layer_like_the_server(settings: Any, stack_env: dict[str, str]) -> None:
    """This process publishes where the server listens (the prefix config/settings.py
    derives from REDIS_URL), whatever this process's own environment says."""
    url = stack_env["REDIS_URL"]
    settings.CHANNEL_LAYERS = redis_layer(url, prefix="thousand" + urlsplit(url).path.strip("/"))


@pytest.fixture
def server(stack_env: dict[str, str], layer_like_the_server: None) -> Iterator[int]:
    port = free_port()
    process = serve(port, {**stack_env, "GAMES_WS_MAX_PER_ADDRESS": "12"})
    yield port
    process.kill()


async def open_socket(port: int, table_id: int, token: str | None = None) -> Any:
    headers = {"Origin": ORIGIN}
    if token is not None:
        headers["Authorization"] = f"Token {token}"
    return await websockets.connect(
        f"ws://127.0.0.1:{port}/ws/tables/{table_id}/", additional_headers=headers
    )


async def receive(ws: Any) -> dict[str, Any]:
    return dict(json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT)))


async def receive_type(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        message = await receive(ws)
        if message["type"] == kind:
            return message


# -- the seat is the user's, as the seats are now ---------------------------------------


def test_a_socket_whose_user_gave_up_his_seat_neither_sees_nor_plays_it(
    server: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    creator, leaver, taker = (UserFactory() for _ in range(3))
    table = services.table_create(user=creator, players=3, move_seconds=600)
    services.table_join(table=table, user=leaver)
    leaver_token, taker_token = tokens_for([leaver, taker])
    send = realtime.send

    def without_seat_news(messages: Any, kind: str = "table.message", **kwargs: Any) -> None:
        if kind != "table.refresh":  # the "seats changed" message is lost (a Redis blip)
            send(messages, kind, **kwargs)

    async def run() -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any], dict[str, Any]]:
        ws = await open_socket(server, table.pk, leaver_token)
        first = await receive_type(ws, "state")
        monkeypatch.setattr(realtime, "send", without_seat_news)
        await database_sync_to_async(services.table_leave)(table=table, user=leaver)
        await database_sync_to_async(services.table_join)(table=table, user=taker)  # seat 1 again
        await database_sync_to_async(services.seat_fill_with_bot)(
            table=table, level="basic", by=creator
        )
        # Dealer 2: seat 0 opens with the forced bid, then seat 1, the taker's, is to act.
        await database_sync_to_async(services.table_start)(
            table=table, user=creator, first_dealer=2
        )
        seen = [await receive(ws)]
        await ws.send(
            json.dumps({"type": "action", "id": "a1", "version": 0, "action": {"type": "pass"}})
        )
        error = await receive_type(ws, "error")
        taker_ws = await open_socket(server, table.pk, taker_token)
        taker_state = await receive_type(taker_ws, "state")
        await ws.close()
        await taker_ws.close()
        return first, seen, error, taker_state

    first, seen, error, taker_state = asyncio.run(run())
    assert first["seat"] == 1 and taker_state["seat"] == 1 and taker_state["view"]["to_act"] == 1
    assert [(m["type"], m["seat"], m["view"]["hand"]) for m in seen] == [("state", None, None)]
    assert error["code"] == "not_seated" and current(table).version == 0


# -- caps and the per-person rate ---------------------------------------------------------


def test_a_person_may_hold_only_so_many_sockets(server: int) -> None:
    user = UserFactory()
    table = services.table_create(user=user, players=3)
    (token,) = tokens_for([user])
    cap = django_settings.GAMES_WS_MAX_PER_USER

    async def run() -> tuple[dict[str, Any], int | None, dict[str, Any]]:
        sockets = [await open_socket(server, table.pk, token) for _ in range(cap)]
        for ws in sockets:
            await receive_type(ws, "state")
        extra = await open_socket(server, table.pk, token)
        refused = await receive(extra)
        await asyncio.wait_for(extra.wait_closed(), TIMEOUT)
        await sockets.pop().close()
        await asyncio.sleep(0.2)
        again = await open_socket(server, table.pk, token)
        state = await receive(again)
        for ws in [*sockets, again]:
            await ws.close()
        return refused, extra.close_code, state

    refused, close_code, state = asyncio.run(run())
    assert (refused["code"], close_code, state["type"]) == ("too_many_connections", 4429, "state")


def test_one_address_may_hold_only_so_many_sockets(server: int) -> None:
    table = services.table_create(user=UserFactory(), players=3)

    async def run() -> tuple[dict[str, Any], int | None]:
        sockets = [await open_socket(server, table.pk) for _ in range(12)]  # the server's cap
        for ws in sockets:
            await receive_type(ws, "state")
        extra = await open_socket(server, table.pk)
        refused = await receive(extra)
        await asyncio.wait_for(extra.wait_closed(), TIMEOUT)
        for ws in sockets:
            await ws.close()
        return refused, extra.close_code

    assert asyncio.run(run()) == (
        {"type": "error", "id": None, "code": "too_many_connections",
         "message": "at most 12 table connections at a time per address"},
        4429,
    )  # fmt: skip


def test_a_persons_sockets_share_one_rate_limit(server: int) -> None:
    user = UserFactory()
    table = services.table_create(user=user, players=3)
    (token,) = tokens_for([user])
    per_socket = django_settings.GAMES_WS_BURST - 1  # each socket stays under its own limit
    sockets_needed = django_settings.GAMES_WS_USER_BURST // per_socket + 2

    async def run() -> list[str]:
        sockets = [await open_socket(server, table.pk, token) for _ in range(sockets_needed)]
        for ws in sockets:
            await receive_type(ws, "state")
        for ws in sockets:
            for n in range(per_socket):
                await ws.send(json.dumps({"type": "ping", "id": n}))
        answers = [(await receive(ws))["type"] for ws in sockets for _ in range(per_socket)]
        for ws in sockets:
            await ws.close()
        return answers

    answers = asyncio.run(run())
    assert "error" in answers and answers.count("pong") < len(answers)


# -- bad input gets its code, the socket stays ------------------------------------


@pytest.mark.parametrize(
    ("message", "seated", "code"),
    [
        ("[" * 4000, False, "malformed"),
        ('{"type": "ping", "id": ' + "[" * 2000 + "]" * 2000 + "}", False, "malformed"),
        (json.dumps({"type": "seed", "id": "s", "dealing": 1, "seed": "my luck"}), False, "not_seated"),
        (json.dumps({"type": "back", "id": "b"}), False, "not_seated"),
        (json.dumps({"type": "action", "id": "a", "version": 0}), True, "malformed"),
        (json.dumps({"type": "action", "id": "a", "version": 0, "action": "pass"}), True, "malformed"),
        (json.dumps({"type": "action", "id": "a", "version": 0, "action": None}), True, "malformed"),
    ],
    ids=["4000 nested lists", "a deeply nested id", "anonymous seed", "anonymous back", "action without action",
         "action as a string", "action null"],
)  # fmt: skip
def test_bad_input_gets_its_code_and_the_socket_stays(
    server: int, message: str, seated: bool, code: str
) -> None:
    user = UserFactory()
    table = services.table_create(user=user, players=3)
    for _ in range(2):
        services.seat_fill_with_bot(table=table, level="basic", by=user)
    services.table_start(table=table, user=user)
    (token,) = tokens_for([user])

    async def run() -> tuple[dict[str, Any], dict[str, Any]]:
        ws = await open_socket(server, table.pk, token if seated else None)
        await receive_type(ws, "state")
        await ws.send(message)
        error = await receive_type(ws, "error")
        await ws.send(json.dumps({"type": "ping", "id": "still there"}))
        pong = await receive_type(ws, "pong")
        await ws.close()
        return error, pong

    error, pong = asyncio.run(run())
    assert (error["code"], pong["id"], Table.objects.get(pk=table.pk).version) == (
        code,
        "still there",
        0,
    )
