"""The table websocket (docs/protocol.md) through the Redis channel layer: a whole deal
by three clients, every error code, reconnects, spectators, resent message ids, junk."""

from __future__ import annotations

import asyncio
import json
import threading
import uuid
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from config.asgi import application
from games import realtime, scheduler, services
from games.bots import make_bot
from games.engine import View
from games.engine.fair import commitment
from games.models import Dealing, TableAction
from tests.games.helpers import open_table
from tests.integration.conftest import redis_layer

pytestmark = [pytest.mark.asyncio, pytest.mark.integration, pytest.mark.django_db(transaction=True)]

ORIGIN = (b"origin", b"http://127.0.0.1:8000")
TIMEOUT = 5


@pytest.fixture(autouse=True)
def _redis_channel_layer(settings: Any, redis_url: str) -> None:
    settings.CHANNEL_LAYERS = redis_layer(redis_url, prefix=f"test-{uuid.uuid4().hex[:8]}")


def _cookie(user: Any) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


class Player:
    """One websocket client at a table."""

    def __init__(self, communicator: WebsocketCommunicator) -> None:
        self.ws = communicator
        self.state: dict[str, Any] = {}
        self.version = 0
        self.view: dict[str, Any] | None = None

    async def receive(self) -> dict[str, Any]:
        message = json.loads(await self.ws.receive_from(timeout=TIMEOUT))
        if message["type"] in ("state", "update"):
            self.version = message["version"]
            self.view = message["view"]
        return message

    async def receive_type(self, kind: str) -> dict[str, Any]:
        while True:
            message = await self.receive()
            if message["type"] == kind:
                return message

    async def send(self, message: Any) -> None:
        await self.ws.send_to(
            text_data=message if isinstance(message, str) else json.dumps(message)
        )

    async def act(
        self, action: dict[str, Any], *, message_id: str | None = None, version: int | None = None
    ) -> None:
        await self.send(
            {
                "type": "action",
                "id": message_id or uuid.uuid4().hex,
                "version": self.version if version is None else version,
                "action": action,
            }
        )

    async def close(self) -> None:
        await self.ws.disconnect()


async def connect(table_id: int, user: Any | None = None, *, query: str = "") -> Player:
    headers = [ORIGIN]
    if user is not None:
        cookie = await sync_to_async(_cookie)(user)
        headers.append((b"cookie", f"sessionid={cookie}".encode()))
    path = f"/ws/tables/{table_id}/" + (f"?{query}" if query else "")
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await communicator.connect(timeout=TIMEOUT)
    assert connected
    player = Player(communicator)
    player.state = await player.receive()
    return player


async def three_people() -> tuple[Any, list[Player]]:
    table, users = await sync_to_async(open_table)(humans=3, bots=0)
    players = [await connect(table.pk, user) for user in users]
    await sync_to_async(services.table_start)(table=table, user=users[0])
    for player in players:
        await player.receive_type("update")
    return table, players


def choice(view: dict[str, Any]) -> dict[str, Any]:
    """A basic bot's choice from the view a client got (the same rules as a person's)."""
    return make_bot("basic").decide(View.from_dict(view)).to_dict()


def to_act(players: list[Player]) -> Player:
    seat = players[0].view["to_act"]  # type: ignore[index]
    return players[seat]


# -- a whole deal -----------------------------------------------------------------------------


async def test_three_clients_play_a_whole_deal_and_each_sees_every_move() -> None:
    _table, players = await three_people()
    sheet_rows: list[list[Any]] = [[] for _ in players]
    for _ in range(200):
        actor = to_act(players)
        await actor.act(choice(actor.view))  # type: ignore[arg-type]
        await actor.receive_type("ack")
        for i, player in enumerate(players):
            update = await player.receive_type("update")
            sheet_rows[i] += update["sheet_rows"]
        assert len({p.version for p in players}) == 1
        if sheet_rows[0]:
            break
    assert all(rows == sheet_rows[0] and len(rows) == 1 for rows in sheet_rows), sheet_rows
    for player in players:
        await player.close()


async def test_each_seat_receives_only_its_own_hand() -> None:
    _table, players = await three_people()
    hands = [set(p.view["hand"]) for p in players]  # type: ignore[index]
    assert all(not hands[a] & hands[b] for a in range(3) for b in range(3) if a != b)
    for player in players:
        await player.close()


# -- errors, one per code; the connection stays usable --------------------------------------------


async def error_then_pong(player: Player, message: Any) -> dict[str, Any]:
    await player.send(message)
    error = await player.receive_type("error")
    await player.send({"type": "ping", "id": "p"})
    assert (await player.receive_type("pong"))["id"] == "p"
    return error


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ("{not json", "malformed"),
        ('["a", "list"]', "malformed"),
        ({"type": 7}, "malformed"),
        ({"type": "shout"}, "unknown_type"),
        ({"type": "action", "id": "a1", "version": 0, "action": {"type": "fly"}}, "malformed"),
        ({"type": "action", "id": "a1", "version": "0", "action": {"type": "pass"}}, "malformed"),
        (
            {"type": "action", "id": "a1", "version": 0, "action": {"type": "bid", "value": 103}},
            "illegal",
        ),
        (
            {"type": "action", "id": "a1", "version": 99, "action": {"type": "pass"}},
            "stale_version",
        ),
        ({"type": "seed", "dealing": 0, "seed": "late"}, "invalid_seed"),
        ({"type": "seed", "dealing": 1, "seed": "x" * 129}, "invalid_seed"),
        (json.dumps({"type": "ping", "pad": "x" * 5000}), "too_large"),
    ],
    ids=[
        "not json",
        "not an object",
        "type not a string",
        "unknown type",
        "unknown action",
        "version not a number",
        "illegal bid",
        "stale version",
        "seed too late",
        "seed too long",
        "too large",
    ],
)
async def test_a_bad_message_gets_its_typed_error(message: Any, code: str) -> None:
    _table, players = await three_people()
    actor = to_act(players)
    error = await error_then_pong(actor, message)
    assert error["code"] == code
    for player in players:
        await player.close()


async def test_an_error_echoes_the_message_id() -> None:
    _table, players = await three_people()
    actor = to_act(players)
    error = await error_then_pong(
        actor, {"type": "action", "id": "m-7", "version": 0, "action": {"type": "fly"}}
    )
    assert error["id"] == "m-7"
    for player in players:
        await player.close()


async def test_an_action_out_of_turn_is_refused() -> None:
    _table, players = await three_people()
    seat = players[0].view["to_act"]  # type: ignore[index]
    waiting = players[(seat + 1) % 3]
    error = await error_then_pong(
        waiting, {"type": "action", "id": "x", "version": 0, "action": {"type": "pass"}}
    )
    assert error["code"] == "not_your_turn"
    for player in players:
        await player.close()


async def test_a_spectator_may_not_act() -> None:
    table, players = await three_people()
    spectator = await connect(table.pk)
    error = await error_then_pong(
        spectator, {"type": "action", "id": "x", "version": 0, "action": {"type": "pass"}}
    )
    assert error["code"] == "not_seated"
    for player in [*players, spectator]:
        await player.close()


async def test_an_action_before_the_start_is_refused() -> None:
    table, users = await sync_to_async(open_table)(humans=1, bots=1, players=3)
    player = await connect(table.pk, users[0])
    error = await error_then_pong(
        player, {"type": "action", "id": "x", "version": 0, "action": {"type": "pass"}}
    )
    assert error["code"] == "table_not_playing"
    await player.close()


async def test_a_stale_version_error_is_followed_by_the_current_state() -> None:
    _table, players = await three_people()
    actor = to_act(players)
    await actor.act({"type": "pass"}, version=5)
    await actor.receive_type("error")
    assert (await actor.receive())["type"] == "state"
    for player in players:
        await player.close()


async def test_flooding_gets_rate_limited_then_closed() -> None:
    table, players = await three_people()
    spectator = await connect(table.pk)
    for _ in range(100):
        await spectator.send({"type": "ping"})
    codes = []
    while True:
        output = await spectator.ws.receive_output(timeout=TIMEOUT)
        if output["type"] == "websocket.close":
            break
        codes.append(json.loads(output["text"]).get("code"))
    assert "rate_limited" in codes and output["code"] == 1008
    for player in players:
        await player.close()


async def test_an_unknown_table_answers_not_found_and_closes() -> None:
    communicator = WebsocketCommunicator(application, "/ws/tables/999999/", headers=[ORIGIN])
    await communicator.connect(timeout=TIMEOUT)
    error = json.loads(await communicator.receive_from(timeout=TIMEOUT))
    closed = await communicator.receive_output(timeout=TIMEOUT)
    assert (error["code"], closed["code"]) == ("not_found", 4404)


async def test_a_private_table_refuses_a_spectator_without_its_invite() -> None:
    table, _ = await sync_to_async(open_table)(humans=1, bots=0, players=3, private=True)
    communicator = WebsocketCommunicator(application, f"/ws/tables/{table.pk}/", headers=[ORIGIN])
    await communicator.connect(timeout=TIMEOUT)
    error = json.loads(await communicator.receive_from(timeout=TIMEOUT))
    assert error["code"] == "forbidden"


async def test_a_foreign_origin_is_refused() -> None:
    table, _ = await sync_to_async(open_table)(humans=1, bots=2)
    communicator = WebsocketCommunicator(
        application, f"/ws/tables/{table.pk}/", headers=[(b"origin", b"https://evil.example")]
    )
    connected, _ = await communicator.connect(timeout=TIMEOUT)
    assert not connected


# -- reconnects, spectators, resent ids -----------------------------------------------------------


async def test_a_reconnect_mid_deal_gets_the_same_view() -> None:
    table, players = await three_people()
    for _ in range(4):
        actor = to_act(players)
        await actor.act(choice(actor.view))  # type: ignore[arg-type]
        for player in players:
            await player.receive_type("update")
    users = await sync_to_async(lambda: [s.user for s in table.seats.order_by("number")])()
    before = players[1].view
    await players[1].close()
    again = await connect(table.pk, users[1])
    assert again.state["view"] == before
    for player in [players[0], players[2], again]:
        await player.close()


async def test_a_spectator_gets_the_public_view_only() -> None:
    table, players = await three_people()
    spectator = await connect(table.pk)
    assert spectator.state["seat"] is None and spectator.state["view"]["hand"] is None
    actor = to_act(players)
    await actor.act(choice(actor.view))  # type: ignore[arg-type]
    update = await spectator.receive_type("update")
    assert update["view"]["hand"] is None and update["view"]["legal"] == []
    for player in [*players, spectator]:
        await player.close()


async def test_a_resent_message_id_applies_once() -> None:
    table, players = await three_people()
    actor = to_act(players)
    action = choice(actor.view)  # type: ignore[arg-type]
    await actor.act(action, message_id="same", version=0)
    await actor.receive_type("ack")
    await actor.act(action, message_id="same", version=0)
    ack = await actor.receive_type("ack")
    rows = await sync_to_async(TableAction.objects.filter(table=table).count)()
    assert ack["duplicate"] is True and rows == 1
    for player in players:
        await player.close()


async def test_a_client_seed_goes_into_the_next_dealing() -> None:
    table, players = await three_people()
    dealing = players[0].state["dealing"] or {}
    await players[0].send({"type": "seed", "id": "s", "dealing": 1, "seed": "my own luck"})
    await players[0].receive_type("ack")
    row = await sync_to_async(Dealing.objects.get)(table=table, number=1)
    assert (
        row.client_seeds == {"0": "my own luck"}
        and commitment(bytes.fromhex(row.server_seed)) == row.commitment
    )
    assert dealing.get("number") in (0, 1)
    for player in players:
        await player.close()


async def _bot_turn_played() -> bool:
    """Play the next bot turn filed, once it is filed: a bot's turn is filed after its
    update is out, and an owner delivers that update to its own sockets at once (the
    player may see it a moment before the turn is filed)."""
    for _ in range(50):
        if scheduler.pending():
            return bool(await sync_to_async(scheduler.run_pending)(limit=1))
        await asyncio.sleep(0.01)
    return False


async def test_bots_play_their_turns_and_the_person_sees_them() -> None:
    table, users = await sync_to_async(open_table)(humans=1, bots=2)
    player = await connect(table.pk, users[0])
    await sync_to_async(services.table_start)(table=table, user=users[0])
    await player.receive_type("update")
    while await _bot_turn_played():
        await player.receive_type("update")
    assert player.view["to_act"] == 0 and player.version == len(  # type: ignore[index]
        await sync_to_async(list)(TableAction.objects.filter(table=table, source="bot"))
    )
    await player.close()


async def test_resigning_the_only_person_ends_the_match_with_a_result_and_says_so() -> None:
    table, users = await sync_to_async(open_table)(humans=1, bots=2)
    player = await connect(table.pk, users[0])
    await sync_to_async(services.table_start)(table=table, user=users[0])
    await player.receive_type("update")  # the start
    assert (await player.receive_type("state"))["table"]["status"] == "playing"
    await sync_to_async(services.table_resign)(table=table, user=users[0])
    state = await player.receive_type("state")
    assert state["table"]["status"] == "finished" and state["result"]["finished_by"] == "resigned"
    await player.close()


# -- the reads of a connection do not queue on the one thread-sensitive database thread ------------


async def test_a_sync_is_answered_while_the_single_database_thread_is_busy() -> None:
    """Channels runs every thread-sensitive database call of a process on one thread:
    100 sockets sending ``sync`` made another player's connect take 25 s. A connection's
    state reads go through the thread pool, as actions do."""
    table, users = await sync_to_async(open_table)(humans=1, bots=2)
    player = await connect(table.pk, users[0])
    release = threading.Event()
    busy = asyncio.ensure_future(sync_to_async(release.wait, thread_sensitive=True)())
    try:
        await player.send({"type": "sync"})
        state = await player.receive_type("state")
    finally:
        release.set()
        await busy
    assert state["seat"] == 0 and state["table"]["id"] == table.pk
    await player.close()


async def test_a_signed_in_connect_is_answered_while_the_single_database_thread_is_busy() -> None:
    table, users = await sync_to_async(open_table)(humans=1, bots=2)
    cookie = await sync_to_async(_cookie)(users[0])
    release = threading.Event()
    busy = asyncio.ensure_future(sync_to_async(release.wait, thread_sensitive=True)())
    try:
        communicator = WebsocketCommunicator(
            application,
            f"/ws/tables/{table.pk}/",
            headers=[ORIGIN, (b"cookie", f"sessionid={cookie}".encode())],
        )
        connected, _ = await communicator.connect(timeout=TIMEOUT)
        state = json.loads(await communicator.receive_from(timeout=TIMEOUT))
    finally:
        release.set()
        await busy
    assert connected and (state["type"], state["seat"]) == ("state", 0)
    await communicator.disconnect()


async def test_a_public_message_reaches_players_and_spectators_as_it_is() -> None:
    """``table.public`` (an analysis's progress) carries no seat's view: every socket at
    the table gets its text, while a bare ``table.message`` is never forwarded."""
    table, players = await three_people()
    spectator = await connect(table.pk)
    groups = [realtime.seat_group(table.pk, seat) for seat in (0, 1, 2, None)]
    text = json.dumps({"type": "analysis", "status": "running", "done": 3, "total": 9})

    await sync_to_async(realtime.send)([(group, text) for group in groups], "table.public")

    for socket in [*players, spectator]:
        assert await socket.receive_type("analysis") == json.loads(text)
    for socket in [*players, spectator]:
        await socket.close()
