"""``ws/social/``: the one social socket of a page (docs/social.md). Thin: parse, call one
service or selector in the thread pool, send what it gives.

* A signed-in person's socket counts him online (``social.presence``; ``?table=<id>`` on a
  table's page says where), starts with his open challenges (``challenges``) and
  receives his own notices (each ``challenge`` as it changes) and "read your mutes
  again" (group ``social.user.<id>``).
* On a table's page (``?table=<id>``, ``&invite=…`` for a private one) or a tournament's
  (``?tournament=<id>``) it is also that place's chat: it starts with ``chat.state`` (the
  last messages this person may read) and then forwards each new ``chat`` message,
  except those of the people he ignores (blocked, muted, blocking him), none while his
  own chat is off, and never a message whose event names him among the people seated
  while it was said (a spectators' message during play: ``social.services.chat``).

Client messages: ``say`` {text}, ``report`` {message, reason}, ``mute`` {user},
``hide`` {message} (moderators), ``chat`` {off} (his own switch), ``table_chat``
{off} (the table's creator), ``answer``
{challenge, accept}, ``cancel`` {challenge}, ``ping``; each answered
by ``ack`` or ``error`` with the message's ``id``.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import parse_qs

from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from accounts.models import User
from core.errors import ServiceError
from core.sockets import CLOSE_ABUSE, RateLimit, in_pool
from core.unstorable import MESSAGE as UNSTORABLE
from core.unstorable import storable
from core.ws_guard import GuardedSocket
from social import errors, presence, realtime, selectors, services

MAX_FRAME = 2048


def _query_id(query: dict[str, list[str]], name: str) -> int | None:
    value = (query.get(name) or [""])[0]
    return int(value) if value.isdigit() and len(value) < 12 else None


def _room(**kwargs: Any) -> selectors.Room:
    return selectors.chat_room(**kwargs)


def _ignored(user_id: int) -> tuple[set[int], bool]:
    return selectors.ignored_ids(user_id=user_id), selectors.chat_off_for(user_id)


def _mute(*, user: User, user_id: int) -> None:
    target = User.objects.filter(pk=user_id).first()
    if target is None:
        raise errors.NotFound()
    services.mute_create(user=user, target=target)


_room_read = in_pool(_room)
_ignored_read = in_pool(_ignored)
_say = in_pool(services.chat_say)
_report = in_pool(services.chat_report)
_hide = in_pool(services.message_hide)
_switch = in_pool(services.chat_switch)
_table_switch = in_pool(services.table_chat_switch)
_mute_write = in_pool(_mute)
_challenges_read = in_pool(selectors.challenges_open_for)
_answer = in_pool(services.challenge_answer)
_cancel = in_pool(services.challenge_cancel)


def _dumps(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


class SocialConsumer(GuardedSocket, AsyncWebsocketConsumer):
    socket_kind = "social"
    user: Any = None
    user_id: int | None = None
    present = False
    group: str | None = None
    ignored: frozenset[int] = frozenset()
    chat_off = False
    strikes = 0

    async def connect(self) -> None:
        user = self.scope.get("user")
        self.user = user if user is not None and user.is_authenticated else None
        self.user_id = self.user.pk if self.user is not None else None
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        self.table_id = _query_id(query, "table")
        self.tournament_id = None if self.table_id else _query_id(query, "tournament")
        self.invite = (query.get("invite") or [None])[0]
        self.limit = RateLimit(settings.GAMES_WS_RATE, settings.GAMES_WS_BURST)
        await self.accept()
        if not await self.admit():  # the caps on sockets, per person and address
            return
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
            items = await _challenges_read(user=self.user)
            await self.send(
                text_data=_dumps({"type": "challenges", "me": self.user_id, "items": items})
            )
        if self.table_id is not None or self.tournament_id is not None:
            await self.open_room()

    async def open_room(self) -> None:
        """Subscribe to the place's chat first, then read its state: nothing said in
        between is lost (it may come twice; the page keeps one per id)."""
        group = (
            realtime.table_group(self.table_id)
            if self.table_id is not None
            else realtime.tournament_group(self.tournament_id or 0)
        )
        await self.channel_layer.group_add(group, self.channel_name)
        self.group = group
        try:
            room = await _room_read(
                user=self.user,
                table_id=self.table_id,
                tournament_id=self.tournament_id,
                invite_code=self.invite,
            )
        except ServiceError as exc:
            await self.channel_layer.group_discard(group, self.channel_name)
            self.group = None
            await self.send_error(exc, None)
            return
        self.ignored = frozenset(room.ignored)
        self.chat_off = room.chat_off
        await self.send(text_data=_dumps(selectors.chat_state(room)))

    async def disconnect(self, code: int) -> None:
        if self.user_id is not None:
            await self.channel_layer.group_discard(
                realtime.user_group(self.user_id), self.channel_name
            )
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def ended(self) -> None:
        if self.present:
            self.present = False
            await asyncio.to_thread(presence.leave, channel=self.channel_name)

    # -- from the client -----------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        message_id = None
        try:
            if not self.limit.allow():
                self.strikes += 1
                if self.strikes > settings.GAMES_WS_STRIKES:
                    await self.close(CLOSE_ABUSE)
                    return
                raise errors.RateLimited()
            self.strikes = 0
            if text_data is None or len(text_data) > MAX_FRAME:
                raise errors.Invalid()
            try:
                message = json.loads(text_data)
            except ValueError:
                raise errors.Invalid() from None
            if not isinstance(message, dict):
                raise errors.Invalid()
            message_id = message.get("id")
            if not isinstance(message_id, (str, int, type(None))):
                message_id = None
            if isinstance(message_id, str) and not storable(message_id):
                # Not even echoed: a lone surrogate cannot be sent back as UTF-8.
                message_id = None
                raise errors.Invalid(UNSTORABLE)
            handler = self.handlers.get(str(message.get("type")))
            if handler is None:
                raise errors.Invalid()
            if handler is not SocialConsumer.on_ping and self.user is None:
                raise errors.Forbidden()
            if handler is not SocialConsumer.on_ping and not await self.credential_holds():
                return  # signed out since (core.ws_guard): told so and closed
            await handler(self, message)
            if handler is not SocialConsumer.on_ping:
                await self.send(text_data=_dumps({"type": "ack", "id": message_id}))
        except ServiceError as exc:
            await self.send_error(exc, message_id)

    async def on_say(self, message: dict[str, Any]) -> None:
        if self.group is None:
            raise errors.Invalid()
        await _say(
            user=self.user,
            text=str(message.get("text") or ""),
            table_id=self.table_id,
            tournament_id=self.tournament_id,
            invite_code=self.invite,
        )

    async def on_report(self, message: dict[str, Any]) -> None:
        await _report(
            user=self.user,
            message_id=_int(message.get("message")),
            reason=str(message.get("reason") or ""),
            invite_code=self.invite,
        )

    async def on_hide(self, message: dict[str, Any]) -> None:
        await _hide(by=self.user, message_id=_int(message.get("message")))

    async def on_mute(self, message: dict[str, Any]) -> None:
        await _mute_write(user=self.user, user_id=_int(message.get("user")))

    async def on_chat(self, message: dict[str, Any]) -> None:
        await _switch(user=self.user, off=bool(message.get("off")))

    async def on_table_chat(self, message: dict[str, Any]) -> None:
        if self.table_id is None:
            raise errors.Invalid()
        await _table_switch(user=self.user, table_id=self.table_id, off=bool(message.get("off")))

    async def on_answer(self, message: dict[str, Any]) -> None:
        await _answer(
            user=self.user,
            challenge_id=_int(message.get("challenge")),
            accept=message.get("accept") is True,
        )

    async def on_cancel(self, message: dict[str, Any]) -> None:
        await _cancel(user=self.user, challenge_id=_int(message.get("challenge")))

    async def on_ping(self, message: dict[str, Any]) -> None:
        await self.send(text_data=_dumps({"type": "pong", "id": message.get("id")}))

    handlers: dict[str, Callable[..., Awaitable[None]]] = {
        "say": on_say,
        "report": on_report,
        "hide": on_hide,
        "mute": on_mute,
        "chat": on_chat,
        "table_chat": on_table_chat,
        "answer": on_answer,
        "cancel": on_cancel,
        "ping": on_ping,
    }

    async def send_error(self, exc: ServiceError, message_id: Any) -> None:
        await self.send(
            text_data=_dumps(
                {"type": "error", "id": message_id, "code": exc.code, "message": exc.message}
            )
        )

    # -- to the client -------------------------------------------------------------------

    async def table_message(self, event: dict[str, Any]) -> None:
        text = event["text"]
        if text.startswith('{"type":"chat",'):
            hide_from = event.get("seats")
            if hide_from is not None and self.user_id in hide_from:
                return  # said by a spectator (or in the tournament) while he plays
            if self.chat_off:
                return
            author = json.loads(text)["author"]["id"]
            if author in self.ignored:
                return
        await self.send(text_data=text)

    async def social_room(self, event: dict[str, Any]) -> None:
        """The table's match ended: read the room again, which now holds the
        spectators' lines for the players too (a new ``chat.state``)."""
        if self.group is not None:
            await self.open_room()

    async def social_reload(self, event: dict[str, Any]) -> None:
        """The person's mutes, blocks or switch changed: read them again, and the room's
        state (the page drops what the person no longer sees)."""
        if self.user_id is None:
            return
        ignored, self.chat_off = await _ignored_read(self.user_id)
        self.ignored = frozenset(ignored)
        if self.group is not None:
            await self.open_room()


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise errors.Invalid()
    return value
