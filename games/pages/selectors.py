"""Read-side helpers of the game pages that ``games.selectors`` does not have (yet).

Functions over a ``thousand/1`` match record (docs/spec.md §8) and the engine: the replay's
frames (every seat's cards after every action) and the score sheet, one row per completed
deal exactly as the live table's ``sheet`` keeps it. A record is the server's own
(``MatchResult.record``), so it is trusted to be valid: the engine still checks every
action and raises on a bad one.
"""

from __future__ import annotations

from typing import Any

from games.engine import Match, Options, action_from_dict, parse_card
from games.engine.cards import mask_cards
from games.models import TableAction
from games.state import TableState

# The spectator view carries these too; a replay frame does not need them.
_FRAME_DROP = ("options", "played_tricks", "legal")


def _mask(cards: list[str]) -> int:
    mask = 0
    for text in cards:
        mask |= parse_card(text).mask
    return mask


def _new_match(record: dict[str, Any]) -> Match:
    options = Options.from_dict(record.get("options", {}))
    return Match.empty(options, first_dealer=record["first_dealer"])


def _start(match: Match, deal: dict[str, Any]) -> list[Any]:
    hands = [_mask(h) for h in deal["hands"]]
    talons = deal["talons"] if match.players == 2 else [deal["talon"]]
    return match.start_deal(hands, tuple(_mask(t) for t in talons))


def record_sheet(record: dict[str, Any]) -> list[dict[str, Any]]:
    """Every completed deal of a record as score-sheet rows, kept exactly as a live
    table keeps them (``games.state.TableState``)."""
    match = _new_match(record)
    state = TableState(table_id=0, version=0, match=match, dealing=0)
    for deal in record["deals"]:
        state.note(_start(match, deal))
        for item in deal.get("actions", []):
            state.apply(item["seat"], action_from_dict(item))
    return state.sheet


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


def bot_took_over_from(*, table_id: int, seat: int) -> int | None:
    """The deal (1-based, as the score sheet numbers them, redeals included) from which a
    bot played a person's seat to the end, read from the action log: the dealing of the
    seat's first bot-played action after its last own action. ``None`` when the person
    played the seat's last action himself (or the seat never acted)."""
    actions = TableAction.objects.filter(table_id=table_id, seat=seat)
    last_own = (
        actions.filter(source=TableAction.Source.HUMAN)
        .order_by("-version")
        .values_list("version", flat=True)
        .first()
    )
    after = actions.exclude(source=TableAction.Source.HUMAN)
    if last_own is not None:
        after = after.filter(version__gt=last_own)
    dealing = after.order_by("version").values_list("dealing", flat=True).first()
    return None if dealing is None else dealing + 1
