"""``ws/club/``: the one club socket of a page (docs/social.md). Thin: parse, call one
service or selector in the thread pool, send what it gives.

A signed-in person's socket counts him online (``club.presence``; ``?table=<id>`` on a
table's page says where) and receives his own notices (challenges) and "read your mutes
again" (group ``club.user.<id>``).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any
from urllib.parse import parse_qs

from channels.generic.websocket import AsyncWebsocketConsumer

from club import presence, realtime
from games.realtime import ReleasesChannel


def _query_id(query: dict[str, list[str]], name: str) -> int | None:
    value = (query.get(name) or [""])[0]
    return int(value) if value.isdigit() and len(value) < 12 else None


class ClubConsumer(ReleasesChannel, AsyncWebsocketConsumer):
    user_id: int | None = None
    present = False

    async def connect(self) -> None:
        user = self.scope.get("user")
        self.user_id = user.pk if user is not None and user.is_authenticated else None
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        self.table_id = _query_id(query, "table")
        self.tournament_id = _query_id(query, "tournament")
        await self.accept()
        if self.user_id is not None:
            await self.channel_layer.group_add(realtime.user_group(self.user_id), self.channel_name)
            await asyncio.to_thread(
                presence.enter,
                channel=self.channel_name,
                user_id=self.user_id,
                table_id=self.table_id,
            )
            self.present = True
            presence.ensure_refresher()

    async def disconnect(self, code: int) -> None:
        if self.user_id is not None:
            await self.channel_layer.group_discard(
                realtime.user_group(self.user_id), self.channel_name
            )

    async def ended(self) -> None:
        if self.present:
            self.present = False
            await asyncio.to_thread(presence.leave, channel=self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            message = json.loads(text_data or "")
        except ValueError:
            message = None
        if isinstance(message, dict) and message.get("type") == "ping":
            await self.send(text_data=json.dumps({"type": "pong", "id": message.get("id")}))

    async def table_message(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["text"])

    async def club_reload(self, event: dict[str, Any]) -> None:
        """The person's mutes or blocks changed (nothing to do without a chat room)."""
