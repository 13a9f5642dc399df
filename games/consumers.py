"""Websockets of the live tables (docs/protocol.md). Thin: parse a message, call one
service through one ``database_sync_to_async``, send what it returns.

A connection is a seat (the signed-in user's seat at the table) or a spectator. It joins
only its own group, so it only ever receives its own seat's view; and it forwards a
message only when it is the view of that seat and its user held that seat as it was sent
(``may_forward``: each message says both), so a lost message about the seats never shows
another player's cards. Actions name the user, not a seat: the service finds the seat.
Sockets are capped per person and per address across the servers, and close when
their user's credentials are revoked (core.ws_guard); they are rate-limited per
socket and per person (``Limits``); every database call runs in the thread pool
(``core.sockets.in_pool``).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from accounts.types import Visitor
from core.sockets import CLOSE_ABUSE, CLOSE_FORBIDDEN, CLOSE_NOT_FOUND, RateLimit, in_pool
from core.ws_guard import GuardedSocket
from games import errors, messages, owner, realtime, selectors
from games import state as table_state


def _dumps(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"))


class Limits:
    """One rate bucket per person (per address for anonymous ones) shared by all his
    table sockets on this server process, kept while he has one here (how many he may
    open is core.ws_guard's). Only the event loop's thread touches it."""

    def __init__(self) -> None:
        self.open: Counter[tuple[str, Any]] = Counter()
        self.buckets: dict[tuple[str, Any], RateLimit] = {}

    def enter(self, user_id: int | None, address: str | None) -> tuple[str, Any] | None:
        """Count a new socket of ``user_id`` (None: anonymous) from ``address``; returns
        the key of its rate bucket (:meth:`bucket`; None: an anonymous socket from an
        address not known has only its own)."""
        user = None if user_id is None else ("user", user_id)
        place = None if address is None else ("address", address)  # None: not known (tests)
        for key in (user, place):
            if key is not None:
                self.open[key] += 1
        return user or place

    def bucket(self, who: tuple[str, Any]) -> RateLimit:
        """The rate bucket all sockets of ``who`` share."""
        bucket = self.buckets.get(who)
        if bucket is None:
            bucket = self.buckets[who] = RateLimit(
                settings.GAMES_WS_USER_RATE, settings.GAMES_WS_USER_BURST
            )
        return bucket

    def leave(self, who: tuple[str, Any], address: str | None) -> None:
        for key in {who, ("address", address)}:
            if key not in self.open:
                continue  # an unknown address (not counted)
            self.open[key] -= 1
            if self.open[key] <= 0:
                del self.open[key]
                self.buckets.pop(key, None)


limits = Limits()

# The table sockets of this process per table (the event loop's thread only). When a
# table's last one closes, this process's copy of the table's state is dropped: the
# update that ends its match, or that the next action needs, would reach this process
# only through a socket of that table, so a copy kept without one would be kept until
# the cache's bound pushed it out (in the soak, a player who left the page as the
# match ended elsewhere left one behind each time).
sockets_at: Counter[int] = Counter()


def _connect(table_id: int, user: Visitor | None, invite: str | None) -> int | None:
    """The seat of ``user`` at the table (None: a spectator), if he may watch it."""
    table = selectors.table_get(table_id=table_id)
    if not selectors.may_watch(table=table, user=user, invite_code=invite):
        raise errors.Forbidden("this table is private")
    return selectors.seat_of(table_id=table_id, user=user)


_connect_read = in_pool(_connect)
_state_read = in_pool(selectors.table_state_message)


class TableConsumer(GuardedSocket, AsyncWebsocketConsumer):
    """A socket at a table. Which seat's messages it receives and which seat it plays
    for are decided from its *user* against the seats as they are, never from a seat
    number it remembered: the service decides the seat of an action, and a table message
    carries whose view it is and who held each seat when it was sent
    (``realtime.send_views``, :meth:`may_forward`)."""

    socket_kind = "table"
    table_id: int
    user_id: int | None = None
    seat: int | None = None
    group: str | None = None
    who: tuple[str, Any] | None = None  # the key this socket is counted under (Limits)
    address: str | None = None
    strikes = 0  # messages refused in a row
    counted = False  # in ``sockets_at``
    watching = False  # counted by the table's owner (games.owner.watch)

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        sockets_at[self.table_id] += 1
        self.counted = True
        self.user = self.scope.get("user")
        self.user_id = (
            self.user.pk if self.user is not None and self.user.is_authenticated else None
        )
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        invite = (query.get("invite") or [None])[0]
        self.limit = self.user_limit = RateLimit(settings.GAMES_WS_RATE, settings.GAMES_WS_BURST)
        # The client's address as the last trusted proxy saw it (core/client_address.py,
        # DJANGO_TRUSTED_PROXIES), or every socket behind a proxy would share one.
        self.address = (self.scope.get("client") or (None,))[0]
        await self.accept()
        if not await self.admit():
            return
        self.who = limits.enter(self.user_id, self.address)
        if self.who is not None:
            self.user_limit = limits.bucket(self.who)
        try:
            seat = await _connect_read(self.table_id, self.user, invite)
        except errors.TableError as exc:
            await self.send_error(exc, None)
            await self.close(
                CLOSE_NOT_FOUND if isinstance(exc, errors.TableNotFound) else CLOSE_FORBIDDEN
            )
            return
        if owner.enabled():
            # The table's owner is this process, or knows this process has its sockets
            # before the state is read (so it publishes the updates for them).
            await owner.watch(self.table_id)
            self.watching = True
        # Subscribe first, then read the state: an update committed in between reaches
        # this connection (after the state, with a version it already has) instead of
        # being lost, which left a player who connected as the match started waiting
        # for an update that never came.
        await self.join(seat)
        await self.send_state()

    async def join(self, seat: int | None) -> None:
        self.seat = seat
        group = realtime.seat_group(self.table_id, seat)
        if group == self.group:
            return
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        await self.channel_layer.group_add(group, self.channel_name)
        self.group = group

    async def disconnect(self, code: int) -> None:
        # The connection counts and the table's sockets are given back in ended(), which
        # runs however the consumer ends (core.realtime.ReleasesChannel).
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def ended(self) -> None:
        if self.who is not None:
            limits.leave(self.who, self.address)
            self.who = None
        if self.counted:
            self.counted = False
            sockets_at[self.table_id] -= 1
            last = sockets_at[self.table_id] <= 0
            if last:
                del sockets_at[self.table_id]
                table_state.forget(self.table_id)
            if self.watching:
                self.watching = False
                await owner.unwatch(self.table_id, last=last)

    # -- from the client ---------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        message_id: messages.MessageId = None
        try:
            # Per socket, then per person (per address when anonymous) across his sockets.
            if self.limit.allow() and self.user_limit.allow():
                self.strikes = 0
            else:
                self.strikes += 1
                if self.strikes > settings.GAMES_WS_STRIKES:
                    await self.send_error(errors.RateLimited("too many messages: closing"), None)
                    await self.close(CLOSE_ABUSE)
                    return
                raise errors.RateLimited()
            frame = messages.read_frame(text_data, max_size=settings.GAMES_WS_MAX_MESSAGE)
            message_id = frame.id
            if frame.type in messages.PLAYER_TYPES and self.user_id is None:
                raise errors.NotSeated()
            if frame.type in messages.PLAYER_TYPES and not await self.credential_holds():
                return  # signed out since: closed (core.ws_guard)
            message = messages.parse_frame(frame)
            await self.handlers[type(message)](self, message)
        except errors.TableError as exc:
            await self.send_error(exc, message_id)
            if isinstance(exc, errors.StaleVersion) or (
                isinstance(exc, errors.NotSeated) and self.seat is not None
            ):
                await self.send_state()

    def command(self, kind: str, **fields: Any) -> dict[str, Any]:
        """A command for the table's owner (games.owner): who sends it, and what."""
        return {"table_id": self.table_id, "command": kind, "user_id": self.user_id, **fields}

    async def on_action(self, message: messages.ActionMessage) -> None:
        answer = await owner.command(
            self.command(
                "action",
                action=message.action.to_dict(),
                version=message.version,
                client_id=message.client_id,
            ),
            self.user,
        )
        self.limit.refund()
        self.user_limit.refund()
        ack = {"type": "ack", "id": message.id, "version": answer["version"]}
        if answer["duplicate"]:
            ack["duplicate"] = True
        await self.send(text_data=_dumps(ack))
        if answer["duplicate"]:
            await self.send_state()

    async def on_seed(self, message: messages.SeedMessage) -> None:
        await owner.command(
            self.command("seed", dealing=message.dealing, seed=message.seed), self.user
        )
        await self.send(text_data=_dumps({"type": "ack", "id": message.id}))

    async def on_back(self, message: messages.BackMessage) -> None:
        await owner.command(self.command("back"), self.user)
        await self.send(text_data=_dumps({"type": "ack", "id": message.id}))

    async def on_sync(self, message: messages.SyncMessage) -> None:
        await self.send_state()

    async def on_ping(self, message: messages.PingMessage) -> None:
        await self.send(text_data=_dumps({"type": "pong", "id": message.id}))

    handlers: dict[type[messages.Message], Callable[..., Awaitable[None]]] = {
        messages.ActionMessage: on_action,
        messages.SeedMessage: on_seed,
        messages.BackMessage: on_back,
        messages.SyncMessage: on_sync,
        messages.PingMessage: on_ping,
    }

    # -- to the client -------------------------------------------------------------------

    async def dispatch(self, message: dict[str, Any]) -> None:
        # Every message is handled at once: Channels would first close stale database
        # connections through a hop to the one thread-sensitive database thread, for every
        # message (14% of a loaded server's CPU, docs/benchmarks.md; and a client's message
        # then waited behind every other connection's database calls). This consumer's
        # database calls run in the thread pool and close their own (core.sockets.in_pool).
        if message["type"] == "table.message":
            if not realtime.from_here(message):  # delivered here already (games.owner)
                await self.table_message(message)
            return
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"no handler for message type {message['type']}")
        await handler(message)

    def seat_among(self, holders: list[int | None]) -> int | None:
        """The seat this socket's user holds among ``holders`` (user ids by seat)."""
        if self.user_id is None:
            return None
        for number, user_id in enumerate(holders):
            if user_id == self.user_id:
                return number
        return None

    def may_forward(self, event: dict[str, Any]) -> bool:
        """Whether a table's message may go to this socket as it is: it carries the view
        of the seat whose group this socket is in (``to``: None, the public view), and in
        the seats it carries (who held each as it was sent) this socket's signed-in user
        holds that seat, or holds none for the public view. Anything else is not this
        socket's to see: a message without its seat or its holders, a seat's view that
        reached a socket whose user left it (a message about the seats was lost: two
        updates of the seat can wait in the socket's channel while the first one makes it
        a spectator), a seat held by a bot or by nobody, an anonymous socket."""
        holders = event.get("seats")
        if "to" not in event or not isinstance(holders, list):
            return False
        to = event["to"]
        if to is None:
            return self.seat is None and self.seat_among(holders) is None
        return (
            type(to) is int
            and to == self.seat
            and self.user_id is not None
            and 0 <= to < len(holders)
            and holders[to] == self.user_id
        )

    async def send_state(self) -> None:
        try:
            state = await _state_read(table_id=self.table_id, user=self.user)
            if state["seat"] != self.seat:
                # The user's seat changed: follow it, then read again so that nothing
                # committed while switching groups is missed.
                await self.join(state["seat"])
                state = await _state_read(table_id=self.table_id, user=self.user)
        except errors.TableError as exc:
            await self.send_error(exc, None)
            return
        await self.join(state["seat"])
        await self.send(text_data=_dumps(state))

    async def send_error(self, exc: errors.TableError, message_id: Any) -> None:
        await self.send(
            text_data=_dumps(
                {"type": "error", "id": message_id, "code": exc.code, "message": exc.message}
            )
        )

    async def table_message(self, event: dict[str, Any]) -> None:
        change = event.get("change")
        if change is not None and not owner.enabled():
            # Before the player sees the update, so that his answer to it finds this
            # process's state of the table already there (no catch-up read).
            table_state.follow(self.table_id, change)
        if not self.may_forward(event):
            # Never forward a view this socket's user may not see: drop it and read the
            # state as it is now (the user's seat, or the public view) instead.
            await self.send_state()
            return
        await self.send(text_data=event["text"])

    async def table_refresh(self, event: dict[str, Any]) -> None:
        await self.send_state()

    async def table_public(self, event: dict[str, Any]) -> None:
        """A message for everybody at the table that carries nothing of any seat's view
        (an analysis's progress, once the match is over): forwarded as it is. A seat's
        view never goes this way: it needs ``table.message`` and :meth:`may_forward`."""
        await self.send(text_data=event["text"])


class LobbyConsumer(GuardedSocket, AsyncWebsocketConsumer):
    """``ws/lobby/``: a ``{"type": "refresh", "table_id": …}`` whenever an open table
    changes, so the lobby page reloads its list."""

    socket_kind = "lobby"

    async def connect(self) -> None:
        await self.accept()
        if await self.admit():
            await self.channel_layer.group_add(realtime.LOBBY_GROUP, self.channel_name)

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(realtime.LOBBY_GROUP, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        return None

    async def table_refresh(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["text"])

    async def table_message(self, event: dict[str, Any]) -> None:
        return None
