"""The actions a seat can take (docs/spec.md §2, §4, §6, §8).

Each kind of action is a small frozen dataclass. :func:`action_from_dict` parses the JSON
form of a match record (§8) and :meth:`to_dict` writes it back. Forced openings, taking the
talon and marriage declarations are automatic and are not actions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Union

from .cards import CARDS, Card, card_index
from .errors import MalformedAction


def _require_int(value: object, name: str) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise MalformedAction(f"{name!r} must be an integer, not {value!r}")


def _require_card(value: object) -> None:
    if not isinstance(value, Card):
        raise MalformedAction(f"not a card: {value!r}")


@dataclass(frozen=True, slots=True)
class Bid:
    value: int
    type: ClassVar[str] = "bid"

    def __post_init__(self) -> None:
        _require_int(self.value, "value")

    def to_dict(self) -> dict[str, Any]:
        return {"type": "bid", "value": self.value}


@dataclass(frozen=True, slots=True)
class Pass:
    type: ClassVar[str] = "pass"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "pass"}


@dataclass(frozen=True, slots=True)
class Redeal:
    """Ask for a redeal: by hand during bidding, or by talon before the first give (§2.9)."""

    type: ClassVar[str] = "redeal"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "redeal"}


@dataclass(frozen=True, slots=True)
class Dark:
    """The forced bidder plays dark: a blind 120 (§6.1)."""

    type: ClassVar[str] = "dark"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "dark"}


@dataclass(frozen=True, slots=True)
class Look:
    """The forced bidder looks at his cards: a normal deal (§6.1)."""

    type: ClassVar[str] = "look"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "look"}


@dataclass(frozen=True, slots=True)
class ChooseTalon:
    """Two players: the declarer picks talon 0 or 1 (§4)."""

    index: int
    type: ClassVar[str] = "choose_talon"

    def __post_init__(self) -> None:
        _require_int(self.index, "index")

    def to_dict(self) -> dict[str, Any]:
        return {"type": "choose_talon", "index": self.index}


@dataclass(frozen=True, slots=True)
class Give:
    """The declarer gives ``card`` face down to seat ``to`` (§2.4)."""

    to: int
    card: Card
    type: ClassVar[str] = "give"

    def __post_init__(self) -> None:
        _require_int(self.to, "to")
        _require_card(self.card)

    def to_dict(self) -> dict[str, Any]:
        return {"type": "give", "to": self.to, "card": str(self.card)}


@dataclass(frozen=True, slots=True)
class Contract:
    value: int
    type: ClassVar[str] = "contract"

    def __post_init__(self) -> None:
        _require_int(self.value, "value")

    def to_dict(self) -> dict[str, Any]:
        return {"type": "contract", "value": self.value}


@dataclass(frozen=True, slots=True)
class WriteOff:
    """Роспись: the declarer concedes the deal (§2.8)."""

    type: ClassVar[str] = "write_off"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "write_off"}


@dataclass(frozen=True, slots=True)
class Play:
    card: Card
    type: ClassVar[str] = "play"

    def __post_init__(self) -> None:
        _require_card(self.card)

    def to_dict(self) -> dict[str, Any]:
        return {"type": "play", "card": str(self.card)}


Action = Union[Bid, Pass, Redeal, Dark, Look, ChooseTalon, Give, Contract, WriteOff, Play]

# Interned instances: legal-action lists hand these out without allocating.
PASS = Pass()
REDEAL = Redeal()
DARK = Dark()
LOOK = Look()
WRITE_OFF = WriteOff()
PLAYS: tuple[Play, ...] = tuple(Play(c) for c in CARDS)
GIVES: tuple[tuple[Give, ...], ...] = tuple(tuple(Give(to, c) for c in CARDS) for to in range(4))
CHOOSE_TALONS: tuple[ChooseTalon, ...] = (ChooseTalon(0), ChooseTalon(1))
MAX_VALUE = 1000
BIDS: tuple[Bid, ...] = tuple(Bid(v) for v in range(0, MAX_VALUE + 1, 5))
CONTRACTS: tuple[Contract, ...] = tuple(Contract(v) for v in range(0, MAX_VALUE + 1, 5))


def _int_field(data: dict[str, Any], key: str) -> int:
    if key not in data:
        raise MalformedAction(f"{data.get('type')} needs {key!r}")
    value = data[key]
    if not isinstance(value, int) or isinstance(value, bool):
        raise MalformedAction(f"{key!r} must be an integer")
    return value


def _card_field(data: dict[str, Any]) -> Card:
    if "card" not in data:
        raise MalformedAction(f"{data.get('type')} needs 'card'")
    return CARDS[card_index(data["card"])]


_SIMPLE: dict[str, Action] = {
    "pass": PASS,
    "redeal": REDEAL,
    "dark": DARK,
    "look": LOOK,
    "write_off": WRITE_OFF,
}


def action_from_dict(data: object) -> Action:
    """Parse an action object of a match record (§8); extra keys are ignored."""
    if not isinstance(data, dict):
        raise MalformedAction("an action must be an object")
    kind = data.get("type")
    if not isinstance(kind, str):
        raise MalformedAction("an action needs a string 'type'")
    simple = _SIMPLE.get(kind)
    if simple is not None:
        return simple
    if kind == "bid":
        return Bid(_int_field(data, "value"))
    if kind == "contract":
        return Contract(_int_field(data, "value"))
    if kind == "play":
        return Play(_card_field(data))
    if kind == "give":
        to = _int_field(data, "to")
        return Give(to, _card_field(data))
    if kind == "choose_talon":
        return ChooseTalon(_int_field(data, "index"))
    raise MalformedAction(f"unknown action type {kind!r}")


def parse_action(text: str) -> Action:
    """Parse a compact form: ``"bid 105"``, ``"pass"``, ``"give 0 9H"``, ``"play AS"``…"""
    parts = text.split()
    if not parts:
        raise MalformedAction("empty action")
    kind, args = parts[0], parts[1:]
    try:
        if kind in _SIMPLE and not args:
            return _SIMPLE[kind]
        if kind in ("bid", "contract", "choose_talon") and len(args) == 1:
            field = "index" if kind == "choose_talon" else "value"
            return action_from_dict({"type": kind, field: int(args[0])})
        if kind == "play" and len(args) == 1:
            return action_from_dict({"type": kind, "card": args[0]})
        if kind == "give" and len(args) == 2:
            return action_from_dict({"type": kind, "to": int(args[0]), "card": args[1]})
    except ValueError as exc:
        if isinstance(exc, MalformedAction):
            raise
        raise MalformedAction(f"cannot parse action {text!r}") from None
    raise MalformedAction(f"cannot parse action {text!r}")
