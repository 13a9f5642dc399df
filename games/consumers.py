"""Websockets of the live tables (docs/protocol.md). Thin: parse a message, call one
service through one ``database_sync_to_async``, send what it returns.

A connection is a seat (the signed-in user's seat at the table) or a spectator. It joins
only its own group, so it only ever receives its own seat's view.
"""

from __future__ import annotations

import json
import time
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.db import close_old_connections

from games import errors, realtime, selectors, services


def _action_submit_and_release(**kwargs: Any) -> services.Applied:
    try:
        return services.action_submit(**kwargs)
    finally:
        # Inside the call: database_sync_to_async's own clean-up runs outside the call's
        # context and, for a pool thread, did not always see its connection (the pool ran
        # dry in the consumer tests).
        close_old_connections()


# Actions run on the event loop's thread pool, not on the one thread that Channels gives
# every database call of a process by default: an action then never queues behind the
# others' round trips to PostgreSQL (the benchmark: 470 → 630-770 actions/s at 300
# tables, docs/benchmarks.md). games.state is safe across threads (a lock per table).
# SQLite (the embedded default) keeps the one thread: it serialises writers anyway, and
# its in-memory test database refuses a second thread's write instead of waiting.
_ON_SQLITE = settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3"
_action_submit = database_sync_to_async(_action_submit_and_release, thread_sensitive=_ON_SQLITE)

CLOSE_NOT_FOUND = 4404
CLOSE_FORBIDDEN = 4403
CLOSE_ABUSE = 1008  # policy violation


def _dumps(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"))


class RateLimit:
    """A token bucket per connection: ``rate`` messages a second, bursts of ``burst``.
    ``strikes`` counts messages refused in a row; too many closes the connection.
    An applied action gives its token back: the turn order already bounds those, and a
    fast automated player must not be throttled for playing well."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.stamp = time.monotonic()
        self.strikes = 0

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            self.strikes = 0
            return True
        self.strikes += 1
        return False

    def refund(self) -> None:
        self.tokens = min(self.burst, self.tokens + 1)


def _connect(table_id: int, user: Any, invite: str | None) -> int | None:
    """The seat of ``user`` at the table (None: a spectator), if he may watch it."""
    table = selectors.table_get(table_id=table_id)
    if not selectors.may_watch(table=table, user=user, invite_code=invite):
        raise errors.Forbidden("this table is private")
    return selectors.seat_of(table_id=table_id, user=user)


def _state(table_id: int, user: Any) -> tuple[int | None, dict[str, Any]]:
    seat = selectors.seat_of(table_id=table_id, user=user)
    return seat, selectors.table_state_message(table_id=table_id, seat=seat)


class TableConsumer(AsyncWebsocketConsumer):
    table_id: int
    seat: int | None
    group: str | None = None

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.user = self.scope.get("user")
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        invite = (query.get("invite") or [None])[0]
        self.limit = RateLimit(settings.GAMES_WS_RATE, settings.GAMES_WS_BURST)
        await self.accept()
        try:
            self.seat = await database_sync_to_async(_connect)(self.table_id, self.user, invite)
        except errors.TableError as exc:
            await self.send_error(exc, None)
            await self.close(CLOSE_NOT_FOUND if isinstance(exc, errors.TableNotFound) else CLOSE_FORBIDDEN)
            return
        # Subscribe first, then read the state: an update committed in between reaches
        # this connection (after the state, with a version it already has) instead of
        # being lost, which left a player who connected as the match started waiting
        # for an update that never came.
        await self.join(self.seat)
        await self.send_state()

    async def join(self, seat: int | None) -> None:
        group = realtime.seat_group(self.table_id, seat)
        if group == self.group:
            return
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        await self.channel_layer.group_add(group, self.channel_name)
        self.group = group

    async def disconnect(self, code: int) -> None:
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    # -- from the client ---------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        message_id = None
        try:
            if not self.limit.allow():

                if self.limit.strikes > settings.GAMES_WS_STRIKES:
                    await self.send_error(errors.RateLimited("too many messages: closing"), None)
                    await self.close(CLOSE_ABUSE)
                    return
                raise errors.RateLimited()
            if text_data is None:
                raise errors.Malformed("send JSON text frames")
            if len(text_data) > settings.GAMES_WS_MAX_MESSAGE:
                raise errors.TooLarge(f"a message is at most {settings.GAMES_WS_MAX_MESSAGE} bytes")
            try:
                message = json.loads(text_data)
            except ValueError:
                raise errors.Malformed("not valid JSON") from None
            if not isinstance(message, dict) or not isinstance(message.get("type"), str):
                raise errors.Malformed('a message is a JSON object with a "type"')
            message_id = message.get("id")
            if message_id is not None and not isinstance(message_id, str | int):
                message_id = None
                raise errors.Malformed("id must be a string")
            handler = self.handlers.get(message["type"])
            if handler is None:
                raise errors.UnknownType(f"unknown message type {message['type']!r}")
            await handler(self, message)
        except errors.TableError as exc:
            await self.send_error(exc, message_id)
            if isinstance(exc, errors.StaleVersion):
                await self.send_state()

    async def on_action(self, message: dict[str, Any]) -> None:
        if self.seat is None:
            raise errors.NotSeated()
        client_id = message.get("id")
        applied = await _action_submit(
            table_id=self.table_id,
            seat=self.seat,
            action=message.get("action"),
            expected_version=message.get("version"),
            source="human",
            client_id=None if client_id is None else str(client_id),
        )
        self.limit.refund()
        ack = {"type": "ack", "id": client_id, "version": applied.version}
        if applied.duplicate:
            ack["duplicate"] = True
        await self.send(text_data=_dumps(ack))
        if applied.duplicate:
            await self.send_state()

    async def on_seed(self, message: dict[str, Any]) -> None:
        await database_sync_to_async(services.dealing_add_seed)(
            table_id=self.table_id, user=self.user, dealing=message.get("dealing"), seed=message.get("seed")
        )
        await self.send(text_data=_dumps({"type": "ack", "id": message.get("id")}))

    async def on_back(self, message: dict[str, Any]) -> None:
        await database_sync_to_async(services.seat_return)(table_id=self.table_id, user=self.user)
        await self.send(text_data=_dumps({"type": "ack", "id": message.get("id")}))

    async def on_sync(self, message: dict[str, Any]) -> None:
        await self.send_state()

    async def on_ping(self, message: dict[str, Any]) -> None:
        await self.send(text_data=_dumps({"type": "pong", "id": message.get("id")}))

    handlers = {
        "action": on_action,
        "seed": on_seed,
        "back": on_back,
        "sync": on_sync,
        "ping": on_ping,
    }

    # -- to the client -------------------------------------------------------------------

    async def dispatch(self, message: dict[str, Any]) -> None:
        # An update is forwarded as it is: Channels would first close stale database
        # connections through a thread hop for every message (14% of a loaded server's
        # CPU, docs/benchmarks.md); the database calls close their own.
        if message["type"] == "table.message":
            await self.send(text_data=message["text"])
            return
        await super().dispatch(message)

    async def send_state(self) -> None:
        try:
            self.seat, state = await database_sync_to_async(_state)(self.table_id, self.user)
        except errors.TableError as exc:
            await self.send_error(exc, None)
            return
        await self.join(self.seat)
        await self.send(text_data=_dumps(state))

    async def send_error(self, exc: errors.TableError, message_id: Any) -> None:
        await self.send(
            text_data=_dumps({"type": "error", "id": message_id, "code": exc.code, "message": exc.message})
        )

    async def table_message(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["text"])

    async def table_refresh(self, event: dict[str, Any]) -> None:
        await self.send_state()


class LobbyConsumer(AsyncWebsocketConsumer):
    """``ws/lobby/``: a ``{"type": "refresh", "table_id": …}`` whenever an open table
    changes, so the lobby page reloads its list."""

    async def connect(self) -> None:
        await self.channel_layer.group_add(realtime.LOBBY_GROUP, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(realtime.LOBBY_GROUP, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        return None

    async def table_refresh(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["text"])

    async def table_message(self, event: dict[str, Any]) -> None:
        return None
