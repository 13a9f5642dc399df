"""``ws/tournaments/<id>/``: tells a tournament's page when something changed."""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer

from games.realtime import ReleasesChannel
from tournaments.realtime import group


class TournamentConsumer(ReleasesChannel, AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.group = group(int(self.scope["url_route"]["kwargs"]["tournament_id"]))
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The page does not talk; anything it sends is ignored."""

    async def table_message(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["text"])
