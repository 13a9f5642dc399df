"""The ``thousand/1`` match record: reading and writing it (docs/spec.md §8).

This module knows the format, not the match: :func:`play_deal` drives anything shaped
like a match (:class:`Playable`) and :func:`match_to_record` reads anything that keeps a
deal log (:class:`Recorded`), so it imports nothing from ``match.py``. ``Match.from_record``
and ``Match.to_record`` use it; ``replay.py`` builds §8's replay output on top of both.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeGuard

from .actions import Action, action_from_dict
from .cards import card_index, mask_cards
from .deal import Deal, Phase
from .errors import EngineError, MalformedRecord
from .events import Event
from .options import Options

FORMAT = "thousand/1"


class RecordError(MalformedRecord):
    """A record that cannot be replayed, with the 0-based position of the fault: ``deal``
    and ``action`` are ``None`` where the fault is not inside one deal or one action."""

    def __init__(self, reason: str, deal: int | None = None, action: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.deal = deal
        self.action = action

    def to_dict(self) -> dict[str, Any]:
        return {"error": {"deal": self.deal, "action": self.action, "reason": self.reason}}


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _cards(value: object, what: str) -> int:
    if not isinstance(value, list):
        raise MalformedRecord(f"{what} must be a list of cards")
    mask = 0
    for text in value:
        bit = 1 << card_index(text)
        if mask & bit:
            raise MalformedRecord(f"{text} appears twice")
        mask |= bit
    return mask


def _deal_cards(data: dict[str, Any], players: int) -> tuple[list[int], tuple[int, ...]]:
    hands = data.get("hands")
    if not isinstance(hands, list) or len(hands) != players:
        raise MalformedRecord(f"'hands' must list {players} hands")
    masks = [_cards(h, f"hand {i}") for i, h in enumerate(hands)]
    if players == 2:
        talons = data.get("talons")
        if not isinstance(talons, list) or len(talons) != 2:
            raise MalformedRecord("two-player deals need 'talons': two talons of 2 cards")
        return masks, tuple(_cards(t, f"talon {i}") for i, t in enumerate(talons))
    if "talon" not in data:
        raise MalformedRecord("the deal needs a 'talon'")
    return masks, (_cards(data["talon"], "talon"),)


class Playable(Protocol):
    """What :func:`play_deal` needs of a match."""

    @property
    def players(self) -> int: ...
    @property
    def over(self) -> bool: ...
    @property
    def awaiting_deal(self) -> bool: ...
    @property
    def deal(self) -> Deal | None: ...
    def start_deal(self, hands: list[int], talons: tuple[int, ...]) -> list[Event]: ...
    def apply(self, action: Action, *, seat: int | None = None) -> Sequence[Event]: ...


class LoggedDeal(Protocol):
    @property
    def hands(self) -> tuple[int, ...]: ...
    @property
    def talons(self) -> tuple[int, ...]: ...
    @property
    def actions(self) -> list[tuple[int, Action]]: ...


class Recorded(Protocol):
    """What :func:`match_to_record` needs of a match."""

    @property
    def options(self) -> Options: ...
    @property
    def players(self) -> int: ...
    @property
    def first_dealer(self) -> int: ...
    @property
    def log(self) -> Sequence[LoggedDeal]: ...


def read_header(record: object) -> tuple[Options, int, list[Any]]:
    """The options, first dealer and deal list of a record; raises :class:`RecordError`."""
    if not isinstance(record, dict):
        raise RecordError("a match record must be a JSON object")
    if record.get("format") != FORMAT:
        raise RecordError(f"'format' must be {FORMAT!r}")
    try:
        options = Options.from_dict(record["options"]) if "options" in record else Options()
    except EngineError as exc:
        raise RecordError(str(exc)) from None
    first_dealer = record.get("first_dealer")
    if not _is_int(first_dealer) or not 0 <= first_dealer < options.players:
        raise RecordError(f"'first_dealer' must be a seat 0..{options.players - 1}")
    deals = record.get("deals")
    if not isinstance(deals, list):
        raise RecordError("'deals' must be a list")
    return options, first_dealer, deals


def dealt_cards(data: object, players: int, i: int) -> tuple[list[int], tuple[int, ...]]:
    """The hands and talons written in deal ``i`` of a record, as card masks, read but not
    checked against the rules' layout; raises :class:`RecordError`."""
    if not isinstance(data, dict):
        raise RecordError("a deal must be an object", i)
    try:
        return _deal_cards(data, players)
    except EngineError as exc:
        raise RecordError(str(exc), i) from None


def play_deal(match: Playable, data: object, i: int) -> None:
    """Start deal ``i`` of a record on ``match`` and apply its actions; raises
    :class:`RecordError` (``match`` is then left part-way through the deal)."""
    if match.over:
        raise RecordError("the match is already over", i)
    if i > 0 and not match.awaiting_deal:
        raise RecordError("this deal is not complete", i - 1)
    hands, talons = dealt_cards(data, match.players, i)
    assert isinstance(data, dict)
    try:
        match.start_deal(hands, talons)
    except EngineError as exc:
        raise RecordError(str(exc), i) from None
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError("'actions' must be a list", i)
    n = match.players
    for j, item in enumerate(actions):
        try:
            if not isinstance(item, dict):
                raise MalformedRecord("an action must be an object")
            seat = item.get("seat")
            if not _is_int(seat) or not 0 <= seat < n:
                raise MalformedRecord(f"'seat' must be a seat 0..{n - 1}")
            action = action_from_dict(item)
            if match.deal is None or match.deal.phase == Phase.COMPLETE:
                raise MalformedRecord("the deal is already complete")
            match.apply(action, seat=seat)
        except EngineError as exc:
            raise RecordError(str(exc), i, j) from None


def match_to_record(match: Recorded) -> dict[str, Any]:
    """The record of everything played so far."""
    deals = []
    for log in match.log:
        deal: dict[str, Any] = {"hands": [[str(c) for c in mask_cards(h)] for h in log.hands]}
        if match.players == 2:
            deal["talons"] = [[str(c) for c in mask_cards(t)] for t in log.talons]
        else:
            deal["talon"] = [str(c) for c in mask_cards(log.talons[0])]
        deal["actions"] = [{"seat": seat, **action.to_dict()} for seat, action in log.actions]
        deals.append(deal)
    return {
        "format": FORMAT,
        "options": match.options.to_dict(),
        "first_dealer": match.first_dealer,
        "deals": deals,
    }
