"""Table chat through real websockets and the Redis channel layer: the players' room,
the spectators' room that never reaches a seated player during play, and the chat's
safety (length, rate, filter, mute, block, hide, moderators' mutes, switches)."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from config.asgi import application
from games import services as table_services
from social import errors, services
from social.models import ChatMessage, ChatReport
from tests.factories import UserFactory
from tests.games.helpers import open_table, started_table
from tests.integration.conftest import redis_layer
from tests.social.helpers import ws_headers

pytestmark = [pytest.mark.asyncio, pytest.mark.integration, pytest.mark.django_db(transaction=True)]

TIMEOUT = 5


@pytest.fixture(autouse=True)
def _redis_channel_layer(settings: Any, redis_url: str) -> None:
    settings.CHANNEL_LAYERS = redis_layer(redis_url, prefix=f"test-{uuid.uuid4().hex[:8]}")


class Chat:
    """One social socket on a table's page."""

    def __init__(self, ws: WebsocketCommunicator) -> None:
        self.ws = ws
        self.state: dict[str, Any] = {}

    @classmethod
    async def open(cls, user: Any, table_id: int, invite: str | None = None) -> Chat:
        path = f"/ws/social/?table={table_id}" + (f"&invite={invite}" if invite else "")
        ws = WebsocketCommunicator(application, path, headers=await sync_to_async(ws_headers)(user))
        connected, _ = await ws.connect()
        assert connected
        chat = cls(ws)
        chat.state = await chat.next("chat.state", "error")
        return chat

    async def next(self, *kinds: str) -> dict[str, Any]:
        while True:
            message = json.loads(await self.ws.receive_from(timeout=TIMEOUT))
            if message["type"] in kinds:
                return message

    async def say(self, text: str) -> dict[str, Any]:
        await self.ws.send_to(text_data=json.dumps({"type": "say", "id": "s", "text": text}))
        return await self.next("ack", "error")

    async def send(self, **message: Any) -> dict[str, Any]:
        await self.ws.send_to(text_data=json.dumps({"id": "x", **message}))
        return await self.next("ack", "error")

    async def heard(self) -> list[str]:
        """The chat texts that reach this socket before a quiet moment."""
        texts = []
        while not await self.ws.receive_nothing(timeout=0.3):
            message = json.loads(await self.ws.receive_from())
            if message["type"] == "chat":
                texts.append(message["text"])
        return texts

    async def close(self) -> None:
        await self.ws.disconnect()


async def _table(**kwargs: Any) -> tuple[Any, list[Any]]:
    return await sync_to_async(started_table)(**kwargs)


async def test_the_players_room_reaches_players_and_spectators() -> None:
    table, (ann, bob) = await _table(humans=2, bots=1)
    watcher = await sync_to_async(UserFactory)()
    a, b, w = [await Chat.open(u, table.pk) for u in (ann, bob, watcher)]
    assert a.state["room"] == "players" and w.state["room"] == "spectators"
    assert (await a.say("good luck"))["type"] == "ack"
    assert await b.heard() == ["good luck"]
    assert await w.heard() == ["good luck"]
    for chat in (a, b, w):
        await chat.close()


async def test_a_spectators_message_never_reaches_a_seated_player_during_play() -> None:
    table, (ann, bob) = await _table(humans=2, bots=1)
    watcher, other = await sync_to_async(UserFactory)(), await sync_to_async(UserFactory)()
    a, b, w, o = [await Chat.open(u, table.pk) for u in (ann, bob, watcher, other)]
    assert (await w.say("ann holds the ace of hearts"))["type"] == "ack"
    assert await o.heard() == ["ann holds the ace of hearts"]
    assert await a.heard() == [] and await b.heard() == []
    # Nor when a player opens the page again: the history leaves it out.
    again = await Chat.open(bob, table.pk)
    assert [m["text"] for m in again.state["messages"]] == []
    for chat in (a, b, w, o, again):
        await chat.close()


async def test_a_spectators_message_reaches_everybody_after_the_match() -> None:
    table, (ann, _bob) = await _table(humans=2, bots=1)
    watcher = await sync_to_async(UserFactory)()
    w = await Chat.open(watcher, table.pk)
    await w.say("said during play")
    await sync_to_async(table_services.table_finish_now)(table=table.pk)
    a = await Chat.open(ann, table.pk)
    assert [m["text"] for m in a.state["messages"]] == ["said during play"]
    await w.say("well played")
    assert await a.heard() == ["well played"]
    await w.close()
    await a.close()


async def test_a_players_open_page_gets_the_spectators_lines_when_the_match_ends() -> None:
    table, (ann, _bob) = await _table(humans=2, bots=1)
    watcher = await sync_to_async(UserFactory)()
    a, w = await Chat.open(ann, table.pk), await Chat.open(watcher, table.pk)
    await w.say("said during play")
    await sync_to_async(table_services.table_finish_now)(table=table.pk)
    state = await a.next("chat.state")
    assert [m["text"] for m in state["messages"]] == ["said during play"]
    await w.close()
    await a.close()


async def test_before_the_start_spectators_and_players_hear_each_other() -> None:
    table, (ann,) = await sync_to_async(open_table)(humans=1, bots=0, players=3)
    watcher = await sync_to_async(UserFactory)()
    a, w = await Chat.open(ann, table.pk), await Chat.open(watcher, table.pk)
    await w.say("may I join?")
    assert await a.heard() == ["may I join?"]
    await a.close()
    await w.close()


async def test_text_is_sent_as_written_and_obscenities_are_starred() -> None:
    table, (ann, bob) = await _table(humans=2, bots=1)
    a, b = await Chat.open(ann, table.pk), await Chat.open(bob, table.pk)
    await a.say('<img src=x onerror="alert(1)"> ну ты блядь')
    assert await b.heard() == ['<img src=x onerror="alert(1)"> ну ты *****']
    await a.close()
    await b.close()


async def test_a_message_over_the_length_limit_is_refused_and_stored_nowhere(
    settings: Any,
) -> None:
    table, (ann, _bob) = await _table(humans=2, bots=1)
    a = await Chat.open(ann, table.pk)
    answer = await a.say("x" * (settings.SOCIAL_CHAT_MAX_LENGTH + 1))
    assert answer["type"] == "error" and answer["code"] == "malformed"
    assert answer["id"] == "s"
    assert await sync_to_async(ChatMessage.objects.count)() == 0
    await a.close()


async def test_writing_too_fast_is_refused(settings: Any) -> None:
    settings.SOCIAL_CHAT_RATE = (3, 60)
    table, (ann, _bob) = await _table(humans=2, bots=1)
    a = await Chat.open(ann, table.pk)
    answers = [(await a.say(f"m{i}"))["type"] for i in range(4)]
    assert answers == ["ack", "ack", "ack", "error"]
    assert await sync_to_async(ChatMessage.objects.count)() == 3
    await a.close()


async def test_a_mute_takes_effect_live_for_the_one_who_muted() -> None:
    table, (ann, bob) = await _table(humans=2, bots=1)
    watcher = await sync_to_async(UserFactory)()
    a, b, w = [await Chat.open(u, table.pk) for u in (ann, bob, watcher)]
    await b.say("before")
    assert await a.heard() == ["before"]
    assert (await a.send(type="mute", user=bob.pk))["type"] == "ack"
    reloaded = await a.next("chat.state")
    assert [m["text"] for m in reloaded["messages"]] == []  # his past lines go too
    await b.say("after")
    assert await a.heard() == []
    assert await w.heard() == ["before", "after"]
    for chat in (a, b, w):
        await chat.close()


async def test_a_block_hides_chat_both_ways_live() -> None:
    table, (ann, bob) = await _table(humans=2, bots=1)
    a, b = await Chat.open(ann, table.pk), await Chat.open(bob, table.pk)
    await sync_to_async(services.block_create)(user=ann, target=bob)
    await a.next("chat.state")
    await b.next("chat.state")  # told too: he no longer sees her either
    await b.say("hello?")
    await a.say("hi all")
    # Each hears only himself.
    assert await a.heard() == ["hi all"] and await b.heard() == ["hello?"]
    await a.close()
    await b.close()


async def test_a_moderator_hides_a_message_live_and_for_good() -> None:
    table, (ann, bob) = await _table(humans=2, bots=1)
    staff = await sync_to_async(UserFactory)(is_staff=True, is_superuser=True)
    a, b, s = [await Chat.open(u, table.pk) for u in (ann, bob, staff)]
    assert s.state["moderator"] and not a.state["moderator"]
    await b.say("rude words")
    await a.heard()
    message = await sync_to_async(ChatMessage.objects.get)()
    refused = await a.send(type="hide", message=message.pk)
    assert refused["type"] == "error" and refused["code"] == "not_found"
    assert (await s.send(type="hide", message=message.pk))["type"] == "ack"
    assert (await a.next("chat.hidden"))["id"] == message.pk
    again = await Chat.open(ann, table.pk)
    assert again.state["messages"] == []
    for chat in (a, b, s, again):
        await chat.close()


async def test_a_moderators_mute_refuses_the_next_message() -> None:
    table, (_ann, bob) = await _table(humans=2, bots=1)
    staff = await sync_to_async(UserFactory)(is_staff=True, is_superuser=True)
    b = await Chat.open(bob, table.pk)
    await sync_to_async(services.chat_ban)(by=staff, user=bob, minutes=10)
    answer = await b.say("still here")
    assert answer["code"] == "muted"
    await b.close()


async def test_a_report_is_kept_once_and_never_of_ones_own_message() -> None:
    table, (ann, bob) = await _table(humans=2, bots=1)
    a, b = await Chat.open(ann, table.pk), await Chat.open(bob, table.pk)
    await b.say("you are slow")
    await a.heard()
    message = await sync_to_async(ChatMessage.objects.get)()
    for _ in range(2):
        assert (await a.send(type="report", message=message.pk, reason="rude"))["type"] == "ack"
    assert await sync_to_async(ChatReport.objects.count)() == 1
    assert (await b.send(type="report", message=message.pk))["code"] == "malformed"
    await a.close()
    await b.close()


async def test_a_player_with_chat_off_neither_sees_nor_writes() -> None:
    table, (ann, bob) = await _table(humans=2, bots=1)
    a, b = await Chat.open(ann, table.pk), await Chat.open(bob, table.pk)
    assert (await a.send(type="chat", off=True))["type"] == "ack"
    assert (await a.next("chat.state"))["chat_off"] is True
    await b.say("anyone?")
    assert await a.heard() == []
    assert (await a.say("me"))["code"] == "chat_off"
    await a.close()
    await b.close()


async def test_a_table_created_with_chat_off_takes_no_message() -> None:
    table, (ann, bob) = await _table(humans=2, bots=1)
    with pytest.raises(errors.Forbidden):
        await sync_to_async(services.table_chat_switch)(user=bob, table_id=table.pk, off=True)
    await sync_to_async(services.table_chat_switch)(user=ann, table_id=table.pk, off=True)
    b = await Chat.open(bob, table.pk)
    assert b.state["table_chat_off"] and not b.state["writes"]
    assert (await b.say("hello"))["code"] == "chat_off"
    await b.close()


async def test_an_anonymous_visitor_reads_but_cannot_write() -> None:
    table, (ann, _bob) = await _table(humans=2, bots=1)
    a = await Chat.open(ann, table.pk)
    visitor = await Chat.open(None, table.pk)
    assert visitor.state["writes"] is False
    assert (await visitor.say("hi"))["code"] == "forbidden"
    await a.say("welcome")
    assert await visitor.heard() == ["welcome"]
    await a.close()
    await visitor.close()


async def test_a_private_tables_chat_needs_its_invite() -> None:
    table, (_ann,) = await sync_to_async(open_table)(humans=1, bots=1, private=True)
    stranger = await sync_to_async(UserFactory)()
    refused = await Chat.open(stranger, table.pk)
    assert refused.state["type"] == "error" and refused.state["code"] == "forbidden"
    invited = await Chat.open(stranger, table.pk, invite=table.invite_code)
    assert invited.state["type"] == "chat.state"
    await refused.close()
    await invited.close()


async def test_malformed_frames_get_an_error_and_change_nothing() -> None:
    table, (ann, _bob) = await _table(humans=2, bots=1)
    a = await Chat.open(ann, table.pk)
    for frame in ("not json", "[]", '{"type": "nonsense"}', '{"type": "report", "message": "1"}'):
        await a.ws.send_to(text_data=frame)
        assert (await a.next("error", "ack"))["type"] == "error"
    assert await sync_to_async(ChatMessage.objects.count)() == 0
    await a.close()


def _expire_setup() -> None:
    table, (ann, bob) = started_table(humans=2, bots=1)
    old = services.chat_say(user=ann, table_id=table.pk, text="old")
    reported = services.chat_say(user=ann, table_id=table.pk, text="old but reported")
    services.chat_say(user=ann, table_id=table.pk, text="new")
    services.chat_report(user=bob, message_id=reported.pk)
    long_ago = timezone.now() - timezone.timedelta(days=400)
    ChatMessage.objects.filter(pk__in=[old.pk, reported.pk]).update(created_at=long_ago)


async def test_chat_is_deleted_after_the_retention_time_unless_a_report_waits() -> None:
    await sync_to_async(_expire_setup)()
    assert await sync_to_async(services.chat_expire)() == 1
    left = await sync_to_async(lambda: sorted(ChatMessage.objects.values_list("text", flat=True)))()
    assert left == ["new", "old but reported"]


async def test_the_tables_creator_turns_its_chat_off_live() -> None:
    table, (ann, bob) = await _table(humans=2, bots=1)
    a, b = await Chat.open(ann, table.pk), await Chat.open(bob, table.pk)
    assert a.state["switches_table"] and not b.state["switches_table"]
    assert (await b.send(type="table_chat", off=True))["code"] == "forbidden"
    assert (await a.send(type="table_chat", off=True))["type"] == "ack"
    assert (await b.next("chat.switched"))["off"] is True
    assert (await b.say("hello"))["code"] == "chat_off"
    await a.close()
    await b.close()


async def _private_table_message() -> tuple[Any, ChatMessage]:
    table, (ann,) = await sync_to_async(open_table)(humans=1, bots=1, private=True)
    said = await sync_to_async(services.chat_say)(user=ann, table_id=table.pk, text="our secret")
    return table, said


async def test_reporting_a_private_tables_message_without_a_seat_or_invite_is_as_for_no_message() -> (
    None
):
    table, said = await _private_table_message()
    stranger = await sync_to_async(UserFactory)()
    s = await Chat.open(stranger, table.pk)  # refused the room; the socket stays
    answers = [
        await s.send(type="report", message=message_id, reason="rude")
        for message_id in (said.pk, said.pk + 1000)
    ]
    assert [(a["code"], a["message"]) for a in answers] == [("not_found", "No such message.")] * 2
    assert await sync_to_async(ChatReport.objects.count)() == 0
    await s.close()


async def test_a_person_with_a_private_tables_invite_reports_its_message() -> None:
    table, said = await _private_table_message()
    invited = await sync_to_async(UserFactory)()
    s = await Chat.open(invited, table.pk, invite=table.invite_code)
    assert (await s.send(type="report", message=said.pk, reason="rude"))["type"] == "ack"
    await s.close()


async def test_hiding_a_message_one_may_not_moderate_is_answered_as_for_no_message() -> None:
    table, said = await _private_table_message()
    stranger = await sync_to_async(UserFactory)()
    s = await Chat.open(stranger, table.pk)
    answers = [
        await s.send(type="hide", message=message_id) for message_id in (said.pk, said.pk + 1000)
    ]
    assert answers[0]["code"] == answers[1]["code"] == "not_found"
    assert answers[0]["message"] == answers[1]["message"]
    await s.close()
