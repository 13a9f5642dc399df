"""Each seat's line of a finished match (deals, points, contracts, bolts, barrels), read
from the engine's own events while it replays the match record. Pure Python: the rules are
the engine's; nothing here decides a rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.engine import EngineError, Match, Options, action_from_dict
from games.engine.cards import card_index
from games.engine.events import BarrelArrived, DealScored, Event, MatchWon


class BadRecord(ValueError):
    pass


@dataclass(slots=True)
class SeatLine:
    deals: int = 0
    points: int = 0
    contracts_made: int = 0
    contracts_failed: int = 0
    bolts: int = 0
    barrels: int = 0
    barrel_won: bool = False

    def add(self, other: SeatLine) -> None:
        """Sum two lines (a bot level that held several seats of one match)."""
        self.deals += other.deals
        self.points += other.points
        self.contracts_made += other.contracts_made
        self.contracts_failed += other.contracts_failed
        self.bolts += other.bolts
        self.barrels += other.barrels
        self.barrel_won = self.barrel_won or other.barrel_won


def _mask(cards: Sequence[str]) -> int:
    mask = 0
    for text in cards:
        mask |= 1 << card_index(text)
    return mask


def replay_events(record: dict[str, Any]) -> tuple[Match, list[Event]]:
    """Replay a ``thousand/1`` record (docs/spec.md §8) with the engine, keeping its events.
    Anything malformed or illegal raises :class:`BadRecord`; the engine decides legality
    (for a record the server wrote itself that never happens)."""
    try:
        options = Options.from_dict(record["options"]) if "options" in record else Options()
        match = Match.empty(options, first_dealer=record["first_dealer"])
        events: list[Event] = []
        for deal in record["deals"]:
            hands = [_mask(h) for h in deal["hands"]]
            if options.players == 2:
                talons = tuple(_mask(t) for t in deal["talons"])
            else:
                talons = (_mask(deal["talon"]),)
            events.extend(match.start_deal(hands, talons))
            for item in deal.get("actions", []):
                events.extend(match.apply(action_from_dict(item), seat=item["seat"]))
    except (EngineError, KeyError, TypeError, ValueError, AttributeError) as exc:
        raise BadRecord(f"the match record cannot be replayed: {exc}") from exc
    return match, events


def seat_lines(record: dict[str, Any]) -> list[SeatLine]:
    """Per seat: deals played (a resting dealer's deal and redeals do not count), the sum
    of the deal deltas (docs/spec.md §2.8, before the match steps of §3), contracts made and
    failed as declarer (a written-off deal counts as failed), bolts taken, arrivals on the
    barrel, and whether the match was won from the barrel."""
    match, events = replay_events(record)
    lines = [SeatLine() for _ in range(match.players)]
    for event in events:
        if isinstance(event, DealScored):
            for line in event.lines:
                if line.role == "resting":
                    continue
                seat = lines[line.seat]
                seat.deals += 1
                seat.points += line.delta
                seat.bolts += line.bolts
            if event.outcome == "made":
                lines[event.declarer].contracts_made += 1
            else:
                lines[event.declarer].contracts_failed += 1
        elif isinstance(event, BarrelArrived):
            lines[event.seat].barrels += 1
        elif isinstance(event, MatchWon) and match.options.barrel:
            lines[event.seat].barrel_won = True
    return lines
