"""The club's channel-layer groups and what is sent to them (docs/social.md).

* ``club.user.<id>``: every club socket of one person: his challenges, and "your mutes
  or blocks changed" (the sockets read them again, so a mute takes effect live);
* ``club.chat.<room>``: a chat room (``club.chat.rooms``) — a table's players, its
  spectators, a tournament.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from games import realtime

log = logging.getLogger(__name__)


def user_group(user_id: int) -> str:
    return f"club.user.{user_id}"


def room_group(room: str) -> str:
    return f"club.chat.{room}"


def _send(group: str, kind: str, payload: dict[str, Any]) -> None:
    try:
        text = json.dumps(payload, separators=(",", ":"), ensure_ascii=False)
        realtime.send([(group, text)], kind)
    except Exception:  # a live update must never break what was committed
        log.exception("club: could not send %s to %s", payload.get("type"), group)


def user_changed(user_id: int) -> None:
    """The person's mutes, blocks or chat setting changed: his sockets read them again."""
    _send(user_group(user_id), "club.reload", {"type": "reload"})


def user_notify(user_id: int, payload: dict[str, Any]) -> None:
    """A notice for every club socket of one person (a challenge, its answer)."""
    _send(user_group(user_id), "table.message", payload)
