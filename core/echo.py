"""A diagnostic websocket: proves the round trip browser → server → channel layer → browser.

A client sends ``{"type": "echo", "payload": …}``; the server broadcasts it through the
channel layer to the group ``echo``, and every connected client receives
``{"type": "echo", "payload": …, "from": <display name or null>}``. With the Redis layer
this crosses Redis, so it also works between several ASGI processes.
"""

from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer

from core.ws_guard import GuardedSocket

GROUP = "echo"


class EchoConsumer(GuardedSocket, AsyncJsonWebsocketConsumer):
    socket_kind = "echo"

    async def connect(self) -> None:
        await self.accept()
        if await self.admit():
            await self.channel_layer.group_add(GROUP, self.channel_name)

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(GROUP, self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if not isinstance(content, dict) or content.get("type") != "echo":
            await self.send_json({"type": "error", "error": "expected {'type': 'echo', ...}"})
            return
        user = self.scope.get("user")
        sender = user.get_display_name() if user is not None and user.is_authenticated else None
        await self.channel_layer.group_send(
            GROUP, {"type": "echo.message", "payload": content.get("payload"), "from": sender}
        )

    async def echo_message(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "echo", "payload": event["payload"], "from": event["from"]})
