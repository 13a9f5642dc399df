"""The messages a client sends on a table's websocket (docs/protocol.md §3.2), parsed into
small typed objects at the consumer, so the services receive typed values.

Parsing is two steps, because the protocol answers a spectator's player message with
``not_seated`` before it looks at the message's fields:

- :func:`read_frame`: the frame is JSON text of at most the allowed size, an object with a
  string ``type`` and an ``id`` that is a string or a number (the id an error echoes);
- :func:`parse_frame`: a ``type`` the server knows, and the fields of that type, into one
  of the message classes below.

:func:`parse` does both. Anything that cannot be parsed raises :class:`Unparsable`, which
carries the code and the message the protocol documents for it (``malformed``,
``unknown_type``, ``too_large``, ``invalid_seed``: §4), so the reply is the one a client
always got.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from core.unstorable import storable
from games import errors
from games.engine import Action, EngineError, action_from_dict
from games.engine.errors import InvalidSeed
from games.engine.fair import validate_client_seed

MessageId = str | int | None
"""A message's ``id`` as the client sent it, echoed as it came (a number stays a number)."""


class Unparsable(errors.TableError):
    """A frame that is not a message of the protocol. Its ``code``, ``status`` and
    ``message`` are those of the documented error it stands for (``documented``), so the
    error reply is the same as that error's."""

    def __init__(self, documented: errors.TableError) -> None:
        super().__init__(documented.message)
        self.documented = documented
        self.code = documented.code
        self.status = documented.status


@dataclass(frozen=True, slots=True)
class Frame:
    """A frame that is a JSON object with a string ``type``: its fields not read yet."""

    type: str
    id: MessageId
    fields: dict[str, Any]


@dataclass(frozen=True, slots=True)
class ActionMessage:
    """``action``: an action for the sender's seat at the version he last saw."""

    id: MessageId
    version: int
    action: Action

    @property
    def client_id(self) -> str | None:
        """The id the action is remembered by (resent messages apply once): the ``id`` as
        text."""
        return None if self.id is None else str(self.id)


@dataclass(frozen=True, slots=True)
class SeedMessage:
    """``seed``: the sender's seed for a dealing not dealt yet."""

    id: MessageId
    dealing: int
    seed: str


@dataclass(frozen=True, slots=True)
class BackMessage:
    """``back``: the sender plays his seat again after the clock had a bot play it."""

    id: MessageId


@dataclass(frozen=True, slots=True)
class SyncMessage:
    """``sync``: the sender asks for a ``state``."""

    id: MessageId


@dataclass(frozen=True, slots=True)
class PingMessage:
    """``ping``: a keep-alive, answered with ``pong``."""

    id: MessageId


Message = ActionMessage | SeedMessage | BackMessage | SyncMessage | PingMessage

TYPES = ("action", "seed", "back", "sync", "ping")
"""The message types the server knows."""

PLAYER_TYPES = frozenset({"action", "seed", "back"})
"""The types only a person holding a seat may send (others get ``not_seated``)."""

CLIENT_ID_MAX = 64


def read_frame(text: str | None, *, max_size: int) -> Frame:
    """A text frame as a JSON object with a string ``type`` and a valid ``id``; its other
    fields unread. ``text`` None is a binary frame."""
    if text is None:
        raise Unparsable(errors.Malformed("send JSON text frames"))
    if len(text) > max_size:
        raise Unparsable(errors.TooLarge(f"a message is at most {max_size} bytes"))
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise Unparsable(errors.Malformed("not valid JSON, or nested too deeply")) from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise Unparsable(errors.Malformed('a message is a JSON object with a "type"'))
    kind: str = data["type"]
    message_id = data.get("id")
    if message_id is not None and not isinstance(message_id, str | int):
        raise Unparsable(errors.Malformed("id must be a string"))
    if isinstance(message_id, str) and not storable(message_id):
        # The id is stored with an action (``client_id``): no NUL, no lone surrogate.
        raise Unparsable(errors.Malformed("id must not hold a NUL or a lone surrogate"))
    return Frame(type=kind, id=message_id, fields=data)


def parse_frame(frame: Frame) -> Message:
    """The typed message of ``frame`` (``unknown_type`` for a type the server does not
    know), its fields checked in the order the protocol always checked them."""
    fields = frame.fields
    if frame.type not in TYPES:
        raise Unparsable(errors.UnknownType(f"unknown message type {frame.type!r}"))
    if frame.type == "action":
        return _action(frame.id, fields)
    if frame.type == "seed":
        return _seed(frame.id, fields)
    if frame.type == "back":
        return BackMessage(id=frame.id)
    if frame.type == "sync":
        return SyncMessage(id=frame.id)
    return PingMessage(id=frame.id)


def parse(text: str | None, *, max_size: int) -> Message:
    """:func:`read_frame` then :func:`parse_frame`."""
    return parse_frame(read_frame(text, max_size=max_size))


def _action(message_id: MessageId, fields: dict[str, Any]) -> ActionMessage:
    if "action" not in fields:
        raise Unparsable(errors.Malformed('an action message needs "action"'))
    try:
        action = action_from_dict(fields["action"])
    except EngineError as exc:
        raise Unparsable(errors.Malformed(str(exc))) from None
    version = fields.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise Unparsable(errors.Malformed("version must be a number"))
    message = ActionMessage(id=message_id, version=version, action=action)
    client_id = message.client_id
    if client_id is not None and not 0 < len(client_id) <= CLIENT_ID_MAX:
        raise Unparsable(
            errors.Malformed(f"id must be a string of 1 to {CLIENT_ID_MAX} characters")
        )
    return message


def _seed(message_id: MessageId, fields: dict[str, Any]) -> SeedMessage:
    try:
        seed = validate_client_seed(fields.get("seed"))
    except InvalidSeed as exc:
        raise Unparsable(errors.InvalidSeed(str(exc))) from None
    dealing = fields.get("dealing")
    if not isinstance(dealing, int) or isinstance(dealing, bool):
        raise Unparsable(errors.Malformed("dealing must be a number"))
    return SeedMessage(id=message_id, dealing=dealing, seed=seed)
