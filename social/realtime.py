"""The social app's channel-layer groups and what is sent to them (docs/social.md).

* ``social.user.<id>``: every social socket of one person: his challenges, and "your mutes
  or blocks changed" (the sockets read them again, so a mute takes effect live);
* ``social.chat.table.<id>``, ``social.chat.tournament.<id>``: the sockets on a table's or
  a tournament's page. A table's group carries both of its rooms: a spectators' message
  said during play names the people seated then (the event's ``seats``), and no socket
  of theirs forwards it (``social.consumers``); when the match ends, every socket there
  reads the room again (``social.room``), the spectators' lines included.
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any

from core import realtime

if TYPE_CHECKING:
    from social.models import ChatMessage

log = logging.getLogger(__name__)


def user_group(user_id: int) -> str:
    return f"social.user.{user_id}"


def table_group(table_id: int) -> str:
    return f"social.chat.table.{table_id}"


def tournament_group(tournament_id: int) -> str:
    return f"social.chat.tournament.{tournament_id}"


def message_group(message: ChatMessage) -> str:
    if message.table_id is not None:
        return table_group(message.table_id)
    assert message.tournament_id is not None
    return tournament_group(message.tournament_id)


def message_payload(message: ChatMessage) -> dict[str, Any]:
    """A chat message as the sockets send it (the text as written, never HTML: every
    page sets it as text)."""
    author = message.author
    return {
        "type": "chat",
        "id": message.pk,
        "room": message.room,
        "author": {
            "id": author.pk,
            "username": author.username,
            "name": author.get_display_name(),
            "staff": author.is_staff,
        },
        "announcement": message.announcement,
        "text": message.text,
        "at": message.created_at.isoformat(),
    }


def _send(group: str, kind: str, payload: dict[str, Any], seats: list[int] | None = None) -> None:
    try:
        text = json.dumps(payload, separators=(",", ":"), ensure_ascii=False)
        extra = None if seats is None else {"seats": [*seats]}
        realtime.send([(group, text)], kind, extra=extra)
    except Exception:  # a live update must never break what was committed
        log.exception("social: could not send %s to %s", payload.get("type"), group)


def user_changed(user_id: int) -> None:
    """The person's mutes, blocks or chat switch changed: his sockets read them again."""
    _send(user_group(user_id), "social.reload", {"type": "reload"})


def user_notify(user_id: int, payload: dict[str, Any]) -> None:
    """A notice for every social socket of one person (a challenge, its answer)."""
    _send(user_group(user_id), "table.message", payload)


def chat_said(message: ChatMessage, hide_from: list[int] | None) -> None:
    _send(message_group(message), "table.message", message_payload(message), seats=hide_from)


def chat_hidden(message: ChatMessage) -> None:
    _send(message_group(message), "table.message", {"type": "chat.hidden", "id": message.pk})


def table_chat_switched(table_id: int, off: bool) -> None:
    _send(table_group(table_id), "table.message", {"type": "chat.switched", "off": off})


def table_match_ended(table_id: int) -> None:
    """The table's match ended: its spectators' room is everybody's now. Each socket on
    its page reads the room again (``social.consumers``), so that the players' open pages
    show the spectators' lines without a reload."""
    _send(table_group(table_id), "social.room", {"type": "room"})
