"""Engine events as JSON, as the updates carry them (docs/protocol.md §3.1)."""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from enum import Enum
from typing import Any

from games.engine import Card
from games.engine.events import Event


def _plain(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Enum):
        return value.letter if hasattr(value, "letter") else value.value
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


def _snake(name: str) -> str:
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in name).lstrip("_")


_TYPE_NAMES: dict[type, str] = {}


def event_to_dict(event: Event) -> dict[str, Any]:
    """An engine event as JSON. Events carry public information only (the engine's
    contract, games/engine/events.py), so every seat and spectator may receive them."""
    kind = type(event)
    name = _TYPE_NAMES.get(kind)
    if name is None:
        name = _TYPE_NAMES[kind] = _snake(kind.__name__)
    out: dict[str, Any] = {"type": name}
    for f in fields(event):
        out[f.name] = _plain(getattr(event, f.name))
    return out
