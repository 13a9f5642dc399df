"""Presence through Redis: a social socket counts its person online, on the table whose
page it is on, until it closes — or, when its server died without closing it, until
SOCIAL_PRESENCE_TTL seconds after the last refresh."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from social import presence, selectors, services
from tests.factories import UserFactory
from tests.games.helpers import open_table
from tests.integration.conftest import redis_layer
from tests.social.helpers import ws_headers

pytestmark = [pytest.mark.integration]


@pytest.fixture(autouse=True)
def _redis_channel_layer(settings: Any, redis_url: str) -> None:
    settings.CHANNEL_LAYERS = redis_layer(redis_url, prefix="test-social-presence")


class FakeClock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def time(self) -> float:
        return self.now


def test_presence_is_kept_in_redis(redis_url: str) -> None:
    assert presence._client() is not None


def test_a_socket_counts_its_person_online_with_its_table() -> None:
    presence.enter(channel="c1", user_id=7, table_id=None)
    presence.enter(channel="c2", user_id=7, table_id=42)
    assert presence.of([7, 8]) == {
        7: presence.Presence(online=True, table_id=42),
        8: presence.OFFLINE,
    }
    presence.leave(channel="c2")
    assert presence.of([7]) == {7: presence.Presence(online=True, table_id=None)}
    presence.leave(channel="c1")
    assert presence.of([7]) == {7: presence.OFFLINE}


def test_a_socket_of_a_dead_server_stops_counting_after_the_ttl(
    monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    clock = FakeClock()
    monkeypatch.setattr(presence.time, "time", clock.time)
    presence.enter(channel="gone", user_id=9, table_id=None)
    presence._local.clear()  # the process that held it died: nobody refreshes it
    clock.now += settings.SOCIAL_PRESENCE_TTL - 1
    assert presence.of([9])[9].online
    clock.now += 2
    assert not presence.of([9])[9].online


def test_the_refresh_keeps_a_live_socket_online(
    monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    clock = FakeClock()
    monkeypatch.setattr(presence.time, "time", clock.time)
    presence.enter(channel="alive", user_id=10, table_id=3)
    for _ in range(5):
        clock.now += settings.SOCIAL_PRESENCE_TTL / 3
        assert presence.refresh() == 1
    assert presence.of([10])[10] == presence.Presence(online=True, table_id=3)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_friends_list_follows_a_socket_that_opens_and_drops() -> None:
    table, (bob,) = await sync_to_async(open_table)(humans=1, bots=1)
    ann = await sync_to_async(UserFactory)()
    await sync_to_async(services.follow_create)(user=ann, target=bob)

    async def where() -> list[tuple[bool, int | None, bool]]:
        rows = await sync_to_async(selectors.friends)(user=ann)
        return [(r.online, r.table_id, r.playing) for r in rows]

    assert await where() == [(False, None, False)]
    ws = WebsocketCommunicator(
        application, f"/ws/social/?table={table.pk}", headers=await sync_to_async(ws_headers)(bob)
    )
    connected, _ = await ws.connect()
    assert connected
    assert (await ws.receive_json_from())["type"] == "challenges"  # taken in: counted, present
    assert await where() == [(True, table.pk, True)]
    await ws.disconnect()
    for _ in range(50):  # the consumer's end runs on the server's loop
        if await where() == [(False, None, False)]:
            break
        await asyncio.sleep(0.02)
    assert await where() == [(False, None, False)]


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_an_anonymous_socket_counts_nobody() -> None:
    ws = WebsocketCommunicator(application, "/ws/social/", headers=ws_headers(None))
    connected, _ = await ws.connect()
    assert connected
    assert presence._local == {}
    await ws.disconnect()
