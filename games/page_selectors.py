"""Read-side helpers of the game pages that ``games.selectors`` does not have (yet).

Pure functions over a ``thousand/1`` match record (RULES.md §8) and the engine: the
replay's frames (every seat's cards after every action) and the score sheet, one row per
completed deal in the shape the live table's ``sheet`` uses. A record is the server's own
(``MatchResult.record``), so it is trusted to be valid: the engine still checks every
action and raises on a bad one.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from games.engine import Match, Options, action_from_dict, parse_card
from games.engine.cards import mask_cards
from games.engine.events import (
    BarrelArrived,
    BarrelAttempt,
    BarrelFell,
    BoltPenalty,
    DealScored,
    Event,
    GoldenReset,
    MatchWon,
    Samosval,
)

NOTE_TYPES: dict[type, str] = {
    BarrelAttempt: "barrel_attempt",
    BarrelArrived: "barrel_arrived",
    BarrelFell: "barrel_fell",
    BoltPenalty: "bolt_penalty",
    Samosval: "samosval",
    GoldenReset: "golden_reset",
    MatchWon: "match_won",
}

# The spectator view carries these too; a replay frame does not need them.
_FRAME_DROP = ("options", "played_tricks", "legal", "seat")


def _mask(cards: list[str]) -> int:
    mask = 0
    for text in cards:
        mask |= parse_card(text).mask
    return mask


def _new_match(record: dict[str, Any]) -> Match:
    options = Options.from_dict(record.get("options", {}))
    return Match.empty(options, first_dealer=record["first_dealer"])


def _start(match: Match, deal: dict[str, Any]) -> None:
    hands = [_mask(h) for h in deal["hands"]]
    talons = deal["talons"] if match.players == 2 else [deal["talon"]]
    match.start_deal(hands, tuple(_mask(t) for t in talons))


def sheet_row(match: Match, number: int, events: list[Event]) -> dict[str, Any]:
    """The score-sheet row of the deal ``match`` has just completed, from the events of
    its last action."""
    result = match.results[-1]
    deal = match.deal
    scored = next((e for e in events if isinstance(e, DealScored)), None)
    notes = []
    for event in events:
        kind = NOTE_TYPES.get(type(event))
        if kind is not None:
            notes.append({"type": kind, **asdict(event)})
    return {
        "deal": number,
        "dealer": result.dealer,
        "declarer": result.declarer,
        "bid": deal.bid if deal is not None and deal.bid else None,
        "contract": result.contract,
        "outcome": result.outcome.value,
        "dark": bool(scored.dark) if scored is not None else result.dark,
        "golden": result.golden,
        "lines": [asdict(line) for line in scored.lines] if scored is not None else [],
        "notes": notes,
        "scores": list(result.scores),
        "bolts": list(result.bolts),
        "barrel": result.barrel,
    }


def record_sheet(record: dict[str, Any]) -> list[dict[str, Any]]:
    """Every completed deal of a record as score-sheet rows."""
    match = _new_match(record)
    rows = []
    for number, deal in enumerate(record["deals"]):
        _start(match, deal)
        events: list[Event] = []
        for item in deal.get("actions", []):
            events = list(match.apply(action_from_dict(item), seat=item["seat"]))
        if len(match.results) > len(rows):
            rows.append(sheet_row(match, number, events))
    return rows


def _frame(match: Match, action: dict[str, Any] | None) -> dict[str, Any]:
    view = match.view(None).to_dict()
    for key in _FRAME_DROP:
        view.pop(key, None)
    deal = match.deal
    assert deal is not None
    view["hands"] = [[str(c) for c in mask_cards(h)] for h in deal.hands]
    view["action"] = action
    return view


def replay_deal(record: dict[str, Any], number: int) -> dict[str, Any]:
    """Deal ``number`` of a record step by step: the frame before any action, then one
    after each action, each with every seat's cards (a replay shows all hands)."""
    deals = record["deals"]
    if not 0 <= number < len(deals):
        raise IndexError(number)
    match = _new_match(record)
    for deal in deals[:number]:
        _start(match, deal)
        for item in deal.get("actions", []):
            match.apply(action_from_dict(item), seat=item["seat"])
    deal = deals[number]
    _start(match, deal)
    frames = [_frame(match, None)]
    for item in deal.get("actions", []):
        match.apply(action_from_dict(item), seat=item["seat"])
        frames.append(_frame(match, {k: v for k, v in item.items() if k != "dealing"}))
    talons = deal["talons"] if match.players == 2 else [deal["talon"]]
    return {
        "deal": number,
        "players": match.players,
        "options": match.options.to_dict(),
        "talons": talons,
        "frames": frames,
    }
