"""A tournament's page hears about every change over its websocket."""

from __future__ import annotations

import pytest
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from config.routing import websocket_urlpatterns
from tournaments import realtime

pytestmark = pytest.mark.asyncio


async def test_the_page_is_told_when_its_tournament_changes() -> None:
    communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), "/ws/tournaments/5/")
    connected, _ = await communicator.connect()
    assert connected
    from asgiref.sync import sync_to_async

    await sync_to_async(realtime.tournament_changed)(5)
    assert await communicator.receive_json_from(timeout=5) == {"type": "changed", "tournament": 5}
    await communicator.disconnect()


async def test_another_tournaments_change_is_not_heard() -> None:
    communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), "/ws/tournaments/6/")
    await communicator.connect()
    from asgiref.sync import sync_to_async

    await sync_to_async(realtime.tournament_changed)(7)
    assert await communicator.receive_nothing(timeout=0.3)
    await communicator.disconnect()
