"""``ws/tournaments/<id>/``: tells a tournament's page when something changed.
``ws/notifications/``: tells a signed-in player's notification area when he has a new
notification, whatever pages and tournaments he had when the page was loaded."""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer

from core.ws_guard import CLOSE_SIGNED_OUT, GuardedSocket, frame
from tournaments.realtime import group


class TournamentConsumer(GuardedSocket, AsyncWebsocketConsumer):
    socket_kind = "tournament"

    async def connect(self) -> None:
        self.group = group(int(self.scope["url_route"]["kwargs"]["tournament_id"]))
        await self.accept()
        if await self.admit():
            await self.channel_layer.group_add(self.group, self.channel_name)

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The page does not talk; anything it sends is ignored."""

    async def table_message(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["text"])


class NotificationConsumer(GuardedSocket, AsyncWebsocketConsumer):
    """The player's own group (core.ws_guard.user_group) carries ``{"type":
    "changed"}`` when a notification for him is written (tournaments.realtime); the
    area then fetches itself again. Only for a signed-in player."""

    socket_kind = "notifications"

    async def connect(self) -> None:
        await self.accept()
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.send(text_data=frame("not_authenticated", "Sign in first."))
            await self.close(CLOSE_SIGNED_OUT)
            return
        await self.admit()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The area does not talk; anything it sends is ignored."""

    async def user_notified(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["text"])
