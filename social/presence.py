"""Who is online, and at which table: shared by every server process through Redis.

Every signed-in page keeps one social socket open (``ws/social/``, ``social.consumers``); the
socket registers here while it is open, with the table whose page it is on. Each
person has one sorted set in Redis, ``social:presence:<user id>``: a member per open
socket (``<channel>|<table id>``), scored by the time it expires. A socket that closes
removes its member at once (``leave``); each server process re-scores its own sockets
every ``SOCIAL_PRESENCE_TTL / 3`` seconds, so a process that dies without closing its
sockets stops counting them ``SOCIAL_PRESENCE_TTL`` seconds later at most. A person is
online while one of his members has not expired.

Without Redis (the embedded default: one process) the same is kept in this process.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

import redis
from django.conf import settings

from core.redis_options import redis_options

log = logging.getLogger(__name__)

PREFIX = "social:presence:"


@dataclass(frozen=True, slots=True)
class Presence:
    online: bool
    table_id: int | None = None  # the table whose page he has open, the latest one
    # at a table the reader may not watch (its id withheld: social.selectors.presence_seen)
    hidden_table: bool = False


OFFLINE = Presence(online=False)


def _key(user_id: int) -> str:
    return f"{PREFIX}{user_id}"


def _member(channel: str, table_id: int | None) -> str:
    return f"{channel}|{table_id or ''}"


def _presence(members: Iterable[tuple[str, float]]) -> Presence:
    """From a person's live members (latest expiry last)."""
    live = list(members)
    if not live:
        return OFFLINE
    table_id = None
    for member, _score in live:
        _, _, table = member.rpartition("|")
        if table:
            table_id = int(table)
    return Presence(online=True, table_id=table_id)


@cache
def _client() -> redis.Redis | None:
    url = settings.REDIS_URL
    if not url:
        return None
    return redis.Redis.from_url(
        url, socket_timeout=2, socket_connect_timeout=2, decode_responses=True, **redis_options()
    )


def ttl() -> float:
    return float(settings.SOCIAL_PRESENCE_TTL)


# ------------------------------------------------------------------ the sockets of this process

# channel name → (user id, table id): the social sockets open in this process.
_local: dict[str, tuple[int, int | None]] = {}
_local_lock = threading.Lock()
# Without Redis: user id → {member: expiry}.
_memory: dict[int, dict[str, float]] = {}


def enter(*, channel: str, user_id: int, table_id: int | None) -> None:
    """A social socket of ``user_id`` opened (on the page of ``table_id``)."""
    with _local_lock:
        _local[channel] = (user_id, table_id)
    _write({channel: (user_id, table_id)}, time.time() + ttl())


def leave(*, channel: str) -> None:
    """That socket closed: the person is offline at once if it was his last one."""
    with _local_lock:
        entry = _local.pop(channel, None)
    if entry is None:
        return
    user_id, table_id = entry
    client = _client()
    if client is None:
        _memory.get(user_id, {}).pop(_member(channel, table_id), None)
        return
    try:
        client.zrem(_key(user_id), _member(channel, table_id))
    except redis.RedisError:
        log.warning("presence: could not remove a socket of user %s", user_id)


def refresh() -> int:
    """Re-score every socket of this process (the refresher's beat); returns how many."""
    with _local_lock:
        entries = dict(_local)
    _write(entries, time.time() + ttl())
    return len(entries)


def _write(entries: dict[str, tuple[int, int | None]], expires: float) -> None:
    if not entries:
        return
    client = _client()
    if client is None:
        for channel, (user_id, table_id) in entries.items():
            _memory.setdefault(user_id, {})[_member(channel, table_id)] = expires
        return
    try:
        pipe = client.pipeline(transaction=False)
        for channel, (user_id, table_id) in entries.items():
            key = _key(user_id)
            pipe.zadd(key, {_member(channel, table_id): expires})
            pipe.zremrangebyscore(key, "-inf", time.time())
            pipe.expire(key, int(ttl()) + 1)
        pipe.execute()
    except redis.RedisError:
        log.warning("presence: could not record %d sockets", len(entries))


# ------------------------------------------------------------------ reading


def of(user_ids: Iterable[int]) -> dict[int, Presence]:
    """The presence of each of ``user_ids`` (offline when Redis does not answer)."""
    ids = list(dict.fromkeys(user_ids))
    now = time.time()
    client = _client()
    if client is None:
        return {
            uid: _presence(
                sorted(
                    ((m, s) for m, s in _memory.get(uid, {}).items() if s > now),
                    key=lambda item: item[1],
                )
            )
            for uid in ids
        }
    if not ids:
        return {}
    try:
        pipe = client.pipeline(transaction=False)
        for uid in ids:
            pipe.zrangebyscore(_key(uid), now, "+inf", withscores=True)
        answers = pipe.execute()
    except redis.RedisError:
        log.warning("presence: Redis did not answer; everybody shown offline")
        return dict.fromkeys(ids, OFFLINE)
    return {uid: _presence(answer) for uid, answer in zip(ids, answers, strict=True)}


def online_ids(user_ids: Iterable[int]) -> set[int]:
    return {uid for uid, p in of(user_ids).items() if p.online}


# ------------------------------------------------------------------ the refresher


_refreshers: dict[asyncio.AbstractEventLoop, asyncio.Task[None]] = {}


def ensure_refresher() -> None:
    """Start this event loop's refresher if it is not running (called by each socket)."""
    loop = asyncio.get_running_loop()
    task = _refreshers.get(loop)
    if task is None or task.done():
        for closed in [other for other in _refreshers if other.is_closed()]:
            del _refreshers[closed]
        _refreshers[loop] = loop.create_task(_refresh_forever())


async def _refresh_forever() -> None:
    while True:
        await asyncio.sleep(ttl() / 3)
        try:
            if not await asyncio.to_thread(refresh):
                return  # no socket left: the next one starts it again
        except Exception:
            log.exception("presence: a refresh failed")
