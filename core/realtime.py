"""Sending to websockets through the channel layer, from any code: a service's
``on_commit``, a Celery task, a consumer. Payloads are serialised once, by the caller, and
consumers forward the text as it is. Each app names its own groups (``games.realtime``:
a table's seats and spectators; ``social.realtime``: chat rooms; ``tournaments.realtime``:
an event's and a player's).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import uuid
from collections.abc import Awaitable, Callable, Coroutine, Iterable
from dataclasses import dataclass
from typing import Any

from asgiref.sync import SyncToAsync
from channels.layers import get_channel_layer
from channels_redis.pubsub import RedisPubSubChannelLayer

log = logging.getLogger(__name__)


def send(
    messages: Iterable[tuple[str, str]],
    kind: str = "table.message",
    *,
    extra: dict[str, Any] | None = None,
) -> None:
    """Send ``(group, json text)`` pairs; callable from synchronous code (a service's
    ``on_commit``, a Celery task). ``kind`` names the consumers' handler:
    ``table.message`` forwards the text, ``table.refresh`` makes each connection send
    its own full state again, ``table.public`` forwards a text that carries no seat's
    view (an analysis's progress); ``extra`` adds fields to every event (another app's
    own groups: the social app's chat). A table's views go through ``games.realtime.send_views``: a
    table socket forwards no ``table.message`` that does not say whose view it is.

    In a server process (a worker thread of its event loop) the batch is handed to the
    loop's sender and this returns at once: the thread that runs the database calls of
    every connection of the process must not wait for Redis. Elsewhere (a Celery worker,
    a plain thread) it waits until the messages are published."""
    hand_over([(kind, group, text, extra) for group, text in messages])


def hand_over(batch: list[Message], *, here: bool = False, elsewhere: bool = True) -> None:
    """Publish ``batch`` from synchronous code (:func:`send`), or from the event loop's
    own thread (a table's owner, ``games.owner``: it never waits there either).

    ``here``: in a server process, the messages go straight to this process's own
    members of their groups, in turn with everything else the process sends (the owner
    of a table delivers its updates to its sockets without a trip through Redis); they
    are published as well only when ``elsewhere`` (another process has sockets in the
    groups), marked with this process's :data:`ORIGIN`, which its own consumers skip
    (:func:`from_here`). Outside a server process ``here`` changes nothing."""
    if not batch:
        return
    try:
        loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
    except RuntimeError:
        loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    item: list[Message] | _Here = _Here(batch, elsewhere) if here else batch
    if loop is not None and not loop.is_closed():
        if _on(loop):
            _sender(loop).put(item)
        else:
            loop.call_soon_threadsafe(_sender(loop).put, item)
    else:
        # One long-lived loop per process, so the channel layer keeps its Redis
        # connections (a new loop per call costs ~20 ms).
        future = asyncio.run_coroutine_threadsafe(publish(batch), _publisher_loop())
        try:
            future.result(timeout=30)
        except Exception:
            # What was sent is already committed: the channel layer (Redis) failing now
            # must not fail the service call that committed it (a Celery task would then
            # retry an action that took place). Connections catch up from the database
            # on their next message or reconnect (docs/reliability.md).
            log.exception("publishing %d table messages failed; clients will catch up", len(batch))


# kind, group, text, the event's other fields (``to``, ``seats``, ``change``: send_views)
Message = tuple[str, str, str, dict[str, Any] | None]

# This process, as the messages it delivered to its own sockets and published as well
# say (``hand_over(here=True, elsewhere=True)``): its own consumers skip them.
ORIGIN = uuid.uuid4().hex


def from_here(event: dict[str, Any]) -> bool:
    """Whether ``event`` came back through Redis to the process that already delivered
    it to its own sockets (a consumer drops it)."""
    return event.get("origin") == ORIGIN


@dataclass(frozen=True, slots=True)
class _Here:
    """Messages for this process's own sockets first (:func:`hand_over`)."""

    messages: list[Message]
    elsewhere: bool


def _on(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False


def _event(kind: str, text: str, extra: dict[str, Any] | None) -> dict[str, Any]:
    event: dict[str, Any] = {"type": kind, "text": text}
    if extra:
        event.update(extra)
    return event


class ReleasesChannel:
    """Mixed into every websocket consumer (before Channels' consumer class): when the
    consumer ends, however it ends, its own channel and its place in every group are
    forgotten by this process's channel layer, and :meth:`ended` runs.

    channels-redis's pub/sub layer subscribes a consumer's channel in Redis and keeps a
    queue for it, and forgets both only when the consumer's last ``receive`` is
    cancelled while it waits. A consumer that ends while a message for it has just
    arrived (a table's update and the player's disconnect read in the same turn of the
    loop: the end of every match) or before its next ``receive`` started never gets
    there, so each such socket left a queue and a Redis subscription behind for the
    life of the process: the servers' memory crept with every finished match (the
    soak, docs/benchmarks.md; channels-redis). A group is left only by the
    consumer's own ``group_discard``, which a consumer that ends without its
    ``disconnect`` never calls."""

    channel_name: str

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, sends_while_open(send))  # type: ignore[misc]
        finally:
            try:
                await self.ended()
            finally:
                channel = getattr(self, "channel_name", None)
                if channel is not None:
                    await channel_release(channel)

    async def ended(self) -> None:
        """What the consumer must undo however it ended (with or without ``disconnect``)."""


def sends_while_open(send: Callable[[dict[str, Any]], Awaitable[None]]) -> Any:
    """The server's ``send``, with a frame for a socket that has already closed dropped.

    A consumer prepares an answer (a table's state read from the database) while its
    player leaves the page: by the time the frame is sent the server has closed the
    socket, and uvicorn refuses the frame (a ``RuntimeError`` once the socket is closed,
    ``ClientDisconnected`` while it closes), which ended the consumer with an error in
    the log. Nobody is left to read that frame; the consumer then receives the
    disconnect and ends as usual. Anything else sent out of order is still an error."""

    async def guarded(message: dict[str, Any]) -> None:
        try:
            await send(message)
        except (RuntimeError, OSError) as exc:  # uvicorn's ClientDisconnected is an OSError
            if message.get("type") != "websocket.send" or (
                isinstance(exc, RuntimeError) and "after sending 'websocket.close'" not in str(exc)
            ):
                raise
            log.debug("a frame for a socket already closed was dropped: %s", exc)

    return guarded


async def channel_release(channel: str) -> None:
    """Forget a consumer's channel in this process's channel layer: its queue, its
    Redis subscription and its place in every group (:class:`ReleasesChannel`), each
    only where it is still there. Nothing to do with another layer (the in-memory layer
    keeps a channel's queue only while messages wait in it, and drops them, and the
    channel from its groups, when they expire)."""
    layer = get_channel_layer()
    if not isinstance(layer, RedisPubSubChannelLayer):
        return
    loop_layer = layer._get_layer()  # channels-redis's own per-loop layer (pinned in uv.lock)
    if loop_layer.channels.pop(channel, None) is not None:
        await loop_layer._get_shard(channel).unsubscribe(channel)
    for group_channel, members in list(loop_layer.groups.items()):
        if channel in members:
            members.discard(channel)
            if not members and loop_layer.groups.get(group_channel) is members:
                del loop_layer.groups[group_channel]
                await loop_layer._get_shard(group_channel).unsubscribe(group_channel)


def deliver_here(messages: list[Message]) -> bool:
    """Put ``messages`` straight into the queues of this process's own members of their
    groups, as channels-redis does with what it receives from Redis (its serializer, its
    per-loop layer: the version pinned in uv.lock). False with another layer (the
    in-memory one delivers everything in the process anyway: publish there)."""
    layer = get_channel_layer()
    if not isinstance(layer, RedisPubSubChannelLayer):
        return False
    loop_layer = layer._get_layer()
    for kind, group, text, extra in messages:
        members = loop_layer.groups.get(loop_layer._get_group_channel_name(group))
        if not members:
            continue
        data = layer.serialize(_event(kind, text, extra))
        for channel in members:
            queue = loop_layer.channels.get(channel)
            if queue is not None:
                queue.put_nowait(data)
    return True


async def group_send_counted(group: str, message: dict[str, Any]) -> int | None:
    """``group_send`` that says how many subscribers received the message: Redis's answer
    to the ``PUBLISH`` channels-redis sends (its group channel name, serializer and shard:
    the version pinned in uv.lock). None with another layer (it does not say). 0 means
    no process listens to the group now (none joined it, or Redis restarted and none has
    subscribed again yet): nobody will answer."""
    layer = get_channel_layer()
    assert layer is not None
    if not isinstance(layer, RedisPubSubChannelLayer):
        await layer.group_send(group, message)
        return None
    loop_layer = layer._get_layer()
    channel = loop_layer._get_group_channel_name(group)
    shard = loop_layer._get_shard(channel)
    async with shard._lock:
        shard._ensure_redis()
        return int(await shard._redis.publish(channel, layer.serialize(message)))


async def publish(batch: list[Message]) -> None:
    """Publish ``(kind, group, text, extra)`` messages, each group's in the order given."""
    layer = get_channel_layer()
    assert layer is not None
    if isinstance(layer, RedisPubSubChannelLayer):
        await _publish_pipelined(layer, batch)
        return
    for kind, group, text, extra in batch:
        await layer.group_send(group, _event(kind, text, extra))


async def _publish_pipelined(layer: RedisPubSubChannelLayer, batch: list[Message]) -> None:
    """What ``group_send`` does for each message, in one Redis pipeline per shard: one
    round trip for the whole batch instead of one per message (a shard publishes one
    message at a time, so four groups an action were four round trips in a row; the
    benchmark in docs/benchmarks.md). Uses channels-redis's own group channel names,
    serializer and connections (its version is pinned in uv.lock; the consumer tests
    through Redis cover it)."""
    loop_layer = layer._get_layer()
    by_shard: dict[Any, list[tuple[str, bytes]]] = {}
    for kind, group, text, extra in batch:
        channel = loop_layer._get_group_channel_name(group)
        shard = loop_layer._get_shard(channel)
        by_shard.setdefault(shard, []).append((channel, layer.serialize(_event(kind, text, extra))))
    for shard, items in by_shard.items():
        async with shard._lock:
            shard._ensure_redis()
            pipe = shard._redis.pipeline(transaction=False)
            for channel, data in items:
                pipe.publish(channel, data)
            await pipe.execute()


class _Sender:
    """One per server event loop: publishes the batches handed over by worker threads in
    the order they were committed, so that every connection receives a table's updates in
    version order. Batches waiting together are published together (one pipeline).
    Messages for this process's own sockets (:class:`_Here`) are delivered in the same
    turn, before anything handed over after them is published."""

    def __init__(self) -> None:
        self.waiting: list[Message | _Here | Callable[[], None]] = []
        self.task: asyncio.Task[None] | None = None

    def put(self, batch: list[Message] | _Here | Callable[[], None]) -> None:
        if callable(batch) or isinstance(batch, _Here):
            self.waiting.append(batch)
        else:
            self.waiting.extend(batch)
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self.run())

    async def run(self) -> None:
        while self.waiting:
            waiting, self.waiting = self.waiting, []
            batch: list[Message] = []
            for item in waiting:
                if isinstance(item, _Here):
                    if not deliver_here(item.messages):
                        batch.extend(item.messages)  # no layer of this process's own
                    elif item.elsewhere:
                        batch.extend(
                            (kind, group, text, {**(extra or {}), "origin": ORIGIN})
                            for kind, group, text, extra in item.messages
                        )
                    continue
                if not callable(item):
                    batch.append(item)
                    continue
                await self.publish(batch)
                batch = []
                try:
                    item()
                except Exception:
                    log.exception("a callback after publishing failed")
            await self.publish(batch)

    @staticmethod
    async def publish(batch: list[Message]) -> None:
        if not batch:
            return
        try:
            await publish(batch)
        except Exception:
            log.exception("publishing %d table messages failed", len(batch))


def after_sent(fn: Callable[[], None]) -> None:
    """Call ``fn`` once everything :func:`send` was given before it is published: e.g. a
    bot's turn is scheduled only after the update it answers is out, so another process
    cannot publish the next version first. In a server process ``fn`` runs on the event
    loop (it must not block); elsewhere at once, as :func:`send` has already waited."""
    try:
        loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
    except RuntimeError:
        loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    if loop is not None and not loop.is_closed():
        if _on(loop):
            _sender(loop).put(fn)
        else:
            loop.call_soon_threadsafe(_sender(loop).put, fn)
    else:
        fn()


_senders: dict[asyncio.AbstractEventLoop, _Sender] = {}
_senders_lock = threading.Lock()


def _sender(loop: asyncio.AbstractEventLoop) -> _Sender:
    with _senders_lock:
        sender = _senders.get(loop)
        if sender is None:
            for closed in [other for other in _senders if other.is_closed()]:
                del _senders[closed]
            sender = _senders[loop] = _Sender()
        return sender


_publisher: asyncio.AbstractEventLoop | None = None
_publisher_lock = threading.Lock()


def between_processes() -> bool:
    """Whether the channel layer carries messages between processes (Redis); the
    in-memory one serves one process, on one loop."""
    return isinstance(get_channel_layer(), RedisPubSubChannelLayer)


def run_on_process_loop[T](coroutine: Coroutine[Any, Any, T], *, timeout: float) -> T:
    """Run ``coroutine`` on this process's long-lived loop (the one :func:`send` publishes
    on outside a server: its channel-layer connections stay open between calls) and wait
    for its result, from synchronous code that is not on that loop (a Celery task)."""
    return asyncio.run_coroutine_threadsafe(coroutine, _publisher_loop()).result(timeout)


def _publisher_loop() -> asyncio.AbstractEventLoop:
    global _publisher
    with _publisher_lock:
        if _publisher is None or _publisher.is_closed():
            loop = asyncio.new_event_loop()
            threading.Thread(
                target=loop.run_forever, name="realtime-publisher", daemon=True
            ).start()
            _publisher = loop
        return _publisher
