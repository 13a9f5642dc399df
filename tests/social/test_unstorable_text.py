"""Text the database cannot store (a NUL, a lone surrogate; core/unstorable.py) sent on
the social app's and a table's socket of a real server process: refused as ``malformed``, the
socket stays open, nothing is stored. And a property of chat input: whatever a person
writes, ``chat_say`` stores it or refuses it with the social app's own error."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
import websockets
from hypothesis import given
from hypothesis import strategies as st

from games.models import TableAction
from social import errors, services
from social.models import ChatMessage, ChatReport
from tests.games.helpers import started_table
from tests.games.test_servers import (  # noqa: F401  (fixtures)
    ORIGIN,
    Client,
    Process,
    free_port,
    processes,
    serve,
    stack_env,
    tokens_for,
)

NUL = "\x00"
SURROGATE = "\ud800"


async def _next(ws: Any, *kinds: str) -> dict[str, Any]:
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 20))
        if message["type"] in kinds:
            return message


async def _social(port: int, table_id: int, token: str) -> Any:
    ws = await websockets.connect(
        f"ws://127.0.0.1:{port}/ws/social/?table={table_id}",
        additional_headers={"Origin": ORIGIN, "Authorization": f"Token {token}"},
    )
    await _next(ws, "chat.state")
    return ws


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(240)
@pytest.mark.slow(seconds=10)
def test_a_nul_or_a_lone_surrogate_on_the_social_socket_is_malformed_and_the_socket_stays(
    stack_env: dict[str, str],  # noqa: F811
    processes: list[Process],  # noqa: F811
) -> None:
    table, users = started_table(humans=2, bots=1)
    said = services.chat_say(user=users[1], table_id=table.pk, text="you are slow")
    port = free_port()
    processes.append(serve(port, stack_env))
    ann, _bob = tokens_for(users)
    frames = [
        {"type": "say", "id": "1", "text": f"hello{NUL}there"},
        {"type": "say", "id": "2", "text": f"hello{SURROGATE}there"},
        {"type": "report", "id": "3", "message": said.pk, "reason": f"rude{NUL}"},
        {"type": "report", "id": "4", "message": said.pk, "reason": f"rude{SURROGATE}"},
        {"type": "say", "id": f"5{SURROGATE}", "text": "hello"},
    ]

    async def run() -> tuple[list[tuple[Any, str]], str]:
        ws = await _social(port, table.pk, ann)
        answers = []
        for frame in frames:
            # ensure_ascii: the surrogate travels as the JSON escape \ud800, as a client sends it
            await ws.send(json.dumps(frame))
            answer = await _next(ws, "ack", "error")
            answers.append((answer["id"], answer.get("code", "ack")))
        await ws.send(json.dumps({"type": "ping", "id": "p"}))
        pong = (await _next(ws, "pong"))["type"]
        await ws.close()
        return answers, pong

    answers, pong = asyncio.run(run())
    assert (answers, pong) == (
        [("1", "malformed"), ("2", "malformed"), ("3", "malformed"), ("4", "malformed")]
        + [(None, "malformed")],
        "pong",
    )
    assert ChatMessage.objects.count() == 1 and ChatReport.objects.count() == 0


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(240)
@pytest.mark.slow(seconds=10)
def test_a_nul_or_a_lone_surrogate_in_an_actions_id_is_malformed_and_the_socket_stays(
    stack_env: dict[str, str],  # noqa: F811
    processes: list[Process],  # noqa: F811
) -> None:
    table, users = started_table(humans=2, bots=1)
    port = free_port()
    processes.append(serve(port, stack_env))
    tokens = tokens_for(users)

    async def run() -> tuple[list[str], str]:
        clients = [await Client.connect(port, table.pk, token) for token in tokens]
        actor = clients[clients[0].view["to_act"]]
        codes = []
        for client_id in (f"a{NUL}", f"a{SURROGATE}"):
            await actor.ws.send(
                json.dumps(
                    {
                        "type": "action",
                        "id": client_id,
                        "version": actor.version,
                        "action": actor.view["legal"][-1],
                    }
                )
            )
            codes.append((await actor.until(lambda m: m["type"] in ("ack", "error")))["code"])
        await actor.ws.send(json.dumps({"type": "ping", "id": "p"}))
        pong = (await actor.until(lambda m: m["type"] == "pong"))["type"]
        for client in clients:
            await client.ws.close()
        return codes, pong

    codes, pong = asyncio.run(run())
    assert (codes, pong) == (["malformed", "malformed"], "pong")
    assert not TableAction.objects.filter(table=table, source="human").exists()


# ------------------------------------------------------------------ property


CHAT_TEXT = st.lists(
    st.one_of(
        st.characters(codec=None),  # every code point, surrogates included
        st.sampled_from([NUL, SURROGATE, "\udfff", " ", "x", "x x", "блядь", "fuck", "sh1t"]),
    ),
    max_size=120,
).map("".join)


@pytest.mark.django_db
def test_whatever_a_person_writes_is_stored_or_refused_as_malformed(settings: Any) -> None:
    settings.SOCIAL_CHAT_RATE = (10**9, 60)
    table, (ann, _bob) = started_table(humans=2, bots=1)
    outcomes: list[str] = []

    @given(text=CHAT_TEXT)
    def write(text: str) -> None:
        try:
            services.chat_say(user=ann, table_id=table.pk, text=text)
        except errors.SocialError as refused:
            outcomes.append(refused.code)
        else:
            outcomes.append("stored")

    write()
    assert set(outcomes) == {"stored", "malformed"}
