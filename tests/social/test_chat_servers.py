"""Two real ASGI server processes (uvicorn) on PostgreSQL and Redis: the chat's rate
limit holds for a person across both, a message said on one reaches a socket on the
other, and presence is shared."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
import websockets

from social import presence
from social.models import ChatMessage
from tests.games.helpers import started_table
from tests.games.test_servers import (  # noqa: F401  (fixtures)
    ORIGIN,
    Process,
    free_port,
    processes,
    serve,
    stack_env,
    tokens_for,
)

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(240),
]


async def _open(port: int, table_id: int, token: str) -> Any:
    ws = await websockets.connect(
        f"ws://127.0.0.1:{port}/ws/social/?table={table_id}",
        additional_headers={"Origin": ORIGIN, "Authorization": f"Token {token}"},
    )
    assert await _next(ws, "chat.state")
    return ws


async def _next(ws: Any, *kinds: str) -> dict[str, Any]:
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 20))
        if message["type"] in kinds:
            return message


@pytest.mark.slow(seconds=15)
def test_the_chat_rate_limit_holds_across_two_server_processes(
    stack_env: dict[str, str],  # noqa: F811
    processes: list[Process],  # noqa: F811
    settings: Any,
) -> None:
    limit, _seconds = settings.SOCIAL_CHAT_RATE
    table, users = started_table(humans=2, bots=1)
    ports = [free_port(), free_port()]
    processes += [serve(port, stack_env) for port in ports]
    ann, bob = tokens_for(users)

    async def run() -> tuple[list[str], str, bool]:
        sockets = [await _open(ports[0], table.pk, ann), await _open(ports[1], table.pk, ann)]
        listener = await _open(ports[1], table.pk, bob)
        answers = []
        for i in range(limit + 1):  # taking turns between the two processes
            ws = sockets[i % 2]
            await ws.send(json.dumps({"type": "say", "id": str(i), "text": f"line {i}"}))
            answers.append((await _next(ws, "ack", "error"))["type"])
        heard = (await _next(listener, "chat"))["text"]
        online = presence.of([users[1].pk])[users[1].pk].table_id == table.pk
        for ws in [*sockets, listener]:
            await ws.close()
        return answers, heard, online

    answers, heard, online = asyncio.run(run())
    assert answers == ["ack"] * limit + ["error"]
    assert ChatMessage.objects.count() == limit
    assert heard == "line 0"  # said on the first process, heard on the second
    assert online  # bob's socket on a server process, read here through Redis


@pytest.mark.slow(seconds=10)
def test_presence_ends_within_seconds_after_a_socket_drops_without_a_close(
    stack_env: dict[str, str],  # noqa: F811
    processes: list[Process],  # noqa: F811
) -> None:
    table, users = started_table(humans=2, bots=1)
    port = free_port()
    processes.append(serve(port, stack_env))
    (token, _other) = tokens_for(users)
    ann = users[0].pk

    async def run() -> tuple[bool, bool]:
        ws = await _open(port, table.pk, token)
        online = presence.of([ann])[ann].online
        ws.transport.abort()  # the network goes: no close frame, the TCP connection reset
        for _ in range(100):  # ten seconds at most (the server notices at once)
            if not presence.of([ann])[ann].online:
                break
            await asyncio.sleep(0.1)
        return online, presence.of([ann])[ann].online

    was_online, still_online = asyncio.run(run())
    assert was_online and not still_online
