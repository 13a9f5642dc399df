"""What a seat or a spectator may see (docs/spec.md §2.3, §2.4, §6.1).

A view holds public information plus exactly what its seat may know: its own hand (not
while it plays dark unseen), the talon once shown to everyone (or to the declarer who took
it closed), the card given to it, and the cards the declarer gave. It never holds another
seat's hand, a closed talon, the unused two-player talon or the deck order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .actions import Action
from .cards import CARDS, Card, mask_cards, mask_points
from .deal import Deal, Phase
from .options import Options


class MatchState(Protocol):
    """What a view is built from: the match's standing and its current deal. ``Match``
    has this shape; this module does not import ``match.py`` (which imports it)."""

    @property
    def players(self) -> int: ...
    @property
    def options(self) -> Options: ...
    @property
    def scores(self) -> list[int]: ...
    @property
    def bolts(self) -> list[int]: ...
    @property
    def sitter(self) -> int | None: ...
    @property
    def attempts(self) -> int: ...
    @property
    def winner(self) -> int | None: ...
    @property
    def finished_by(self) -> Any: ...
    @property
    def deals_played(self) -> int: ...
    @property
    def to_act(self) -> int | None: ...
    @property
    def deal(self) -> Deal | None: ...
    def legal_actions(self) -> Sequence[Action]: ...


@dataclass(frozen=True, slots=True)
class View:
    seat: int | None  # None: a spectator
    players: int
    options: Options
    phase: str | None
    dealer: int | None
    resting: int | None
    to_act: int | None
    scores: tuple[int, ...]
    bolts: tuple[int, ...]
    barrel: int | None
    barrel_attempts: int
    winner: int | None
    golden: bool
    dark: bool
    bids: tuple[tuple[int, int | None], ...]  # (seat, value or None for a pass)
    bid: int | None
    declarer: int | None
    contract: int | None
    trump: str | None
    hand: tuple[Card, ...] | None  # None: no hand, or playing dark unseen
    hand_sizes: tuple[int, ...]
    talon: tuple[Card, ...] | None
    talon_taken: int | None
    given_to_me: Card | None
    given_by_me: tuple[tuple[int, Card], ...]
    forced: int | None  # the forced bidder, left of the dealer
    passed: tuple[int, ...]  # seats that have passed this deal
    trick: tuple[tuple[int, Card], ...]
    last_trick: tuple[tuple[int, Card], ...]
    played_tricks: tuple[tuple[tuple[int, Card], ...], ...]  # this deal's completed tricks
    tricks: tuple[int, ...]
    card_points: tuple[int, ...]
    marriages: tuple[int, ...]
    legal: tuple[Action, ...]
    deals_played: int = 0  # counted deals so far (§3.7: redeals not counted)
    finished_by: str | None = None  # "won" or "deals" once the match is over (§8)

    def to_dict(self) -> dict[str, Any]:
        """The view as JSON-ready data. Written out field by field: ``dataclasses.asdict``
        recursed through every tuple and cost several times as much, and the live tables
        build a view for every seat after every action."""
        return {
            "seat": self.seat,
            "players": self.players,
            "options": _options_dict(self.options),
            "phase": self.phase,
            "dealer": self.dealer,
            "resting": self.resting,
            "to_act": self.to_act,
            "scores": self.scores,
            "bolts": self.bolts,
            "barrel": self.barrel,
            "barrel_attempts": self.barrel_attempts,
            "winner": self.winner,
            "golden": self.golden,
            "dark": self.dark,
            "bids": [list(b) for b in self.bids],
            "bid": self.bid,
            "declarer": self.declarer,
            "contract": self.contract,
            "trump": self.trump,
            "hand": None if self.hand is None else [str(c) for c in self.hand],
            "hand_sizes": self.hand_sizes,
            "talon": None if self.talon is None else [str(c) for c in self.talon],
            "talon_taken": self.talon_taken,
            "given_to_me": None if self.given_to_me is None else str(self.given_to_me),
            "given_by_me": [[to, str(c)] for to, c in self.given_by_me],
            "forced": self.forced,
            "passed": self.passed,
            "trick": [[s, str(c)] for s, c in self.trick],
            "last_trick": [[s, str(c)] for s, c in self.last_trick],
            "played_tricks": [[[s, str(c)] for s, c in t] for t in self.played_tricks],
            "tricks": self.tricks,
            "card_points": self.card_points,
            "marriages": self.marriages,
            "legal": [a.to_dict() for a in self.legal],
            "deals_played": self.deals_played,
            "finished_by": self.finished_by,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> View:
        """The inverse of :meth:`to_dict`: a view received as JSON (over the websocket)
        back as a View, so that a bot can decide from it."""
        from .actions import action_from_dict
        from .cards import parse_card

        def cards(items: Any) -> tuple[Card, ...] | None:
            return None if items is None else tuple(parse_card(c) for c in items)

        def seated(items: Any) -> tuple[tuple[int, Card], ...]:
            return tuple((int(s), parse_card(c)) for s, c in items)

        return cls(
            **{
                **data,
                "options": Options.from_dict(data["options"]),
                "scores": tuple(data["scores"]),
                "bolts": tuple(data["bolts"]),
                "bids": tuple((b[0], b[1]) for b in data["bids"]),
                "hand": cards(data["hand"]),
                "hand_sizes": tuple(data["hand_sizes"]),
                "talon": cards(data["talon"]),
                "given_to_me": None
                if data["given_to_me"] is None
                else parse_card(data["given_to_me"]),
                "given_by_me": seated(data["given_by_me"]),
                "passed": tuple(data["passed"]),
                "trick": seated(data["trick"]),
                "last_trick": seated(data["last_trick"]),
                "played_tricks": tuple(seated(t) for t in data["played_tricks"]),
                "tricks": tuple(data["tricks"]),
                "card_points": tuple(data["card_points"]),
                "marriages": tuple(data["marriages"]),
                "legal": tuple(action_from_dict(a) for a in data["legal"]),
            }
        )


_OPTIONS_DICTS: dict[Options, dict[str, Any]] = {}


def _options_dict(options: Options) -> dict[str, Any]:
    """``options.to_dict()``, once per distinct options (they are frozen); a fresh copy
    each time, so a caller may change it."""
    cached = _OPTIONS_DICTS.get(options)
    if cached is None:
        cached = _OPTIONS_DICTS[options] = options.to_dict()
    return dict(cached)


def _cards_of(mask: int) -> tuple[Card, ...]:
    return mask_cards(mask)


def view_for(match: MatchState, seat: int | None) -> View:
    if seat is not None and (
        not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < match.players
    ):
        raise ValueError(f"no seat {seat}")
    deal = match.deal
    base: dict[str, Any] = {
        "seat": seat,
        "players": match.players,
        "options": match.options,
        "scores": tuple(match.scores),
        "bolts": tuple(match.bolts),
        "barrel": match.sitter,
        "barrel_attempts": match.attempts,
        "winner": match.winner,
        "to_act": match.to_act,
        "deals_played": match.deals_played,
        "finished_by": None if match.finished_by is None else match.finished_by.value,
    }
    if deal is None:
        return View(
            **base, phase=None, dealer=None, resting=None, golden=False, dark=False, bids=(), bid=None,
            declarer=None, contract=None, trump=None, hand=None, hand_sizes=(0,) * match.players, talon=None,
            talon_taken=None, given_to_me=None, given_by_me=(), forced=None, passed=(), trick=(), last_trick=(),
            played_tricks=(),
            tricks=(0,) * match.players, card_points=(0,) * match.players, marriages=(0,) * match.players,
            legal=(),
        )  # fmt: skip
    declarer = deal.declarer if deal.declarer >= 0 else None
    # The forced bidder does not see his cards while his blind 120 stands (§6.1).
    playing_blind = seat == deal.forced and (
        deal.phase == Phase.DARK_DECISION or (deal.phase == Phase.BIDDING and deal.dark)
    )
    hand: tuple[Card, ...] | None = None
    if seat is not None and seat != deal.resting and not playing_blind:
        hand = _cards_of(deal.hands[seat])
    talon: tuple[Card, ...] | None = None
    if deal.talon_index >= 0 and (deal.talon_open or (seat is not None and seat == declarer)):
        talon = _cards_of(deal.talons[deal.talon_index])
    given_to_me = None
    given_by_me: tuple[tuple[int, Card], ...] = ()
    if seat is not None:
        if deal.given[seat] >= 0:
            given_to_me = _cards_of(1 << deal.given[seat])[0]
        if seat == declarer:
            given_by_me = tuple(
                (to, _cards_of(1 << c)[0]) for to, c in enumerate(deal.given) if c >= 0
            )
    legal: tuple[Action, ...] = ()
    if seat is not None and match.to_act == seat:
        legal = tuple(match.legal_actions())
    phase = deal.phase
    return View(
        **base,
        phase=phase.name.lower(),
        dealer=deal.dealer,
        resting=deal.resting if deal.resting >= 0 else None,
        golden=deal.golden,
        dark=deal.dark or deal.dark_game,
        bids=tuple(deal.bids),
        bid=deal.bid or None,
        declarer=declarer,
        contract=deal.contract or None,
        trump="SCDH"[deal.trump] if deal.trump >= 0 else None,
        hand=hand,
        hand_sizes=tuple(h.bit_count() for h in deal.hands),
        talon=talon,
        talon_taken=deal.talon_index if deal.talon_index >= 0 else None,
        given_to_me=given_to_me,
        given_by_me=given_by_me,
        forced=deal.forced,
        passed=tuple(s for s in range(deal.players) if deal.passed >> s & 1),
        trick=tuple(zip(deal.trick_seats, _cards_list(deal.trick))),
        last_trick=tuple((s, CARDS[c]) for s, c in deal.last_trick),
        played_tricks=tuple(tuple((s, CARDS[c]) for s, c in t) for t in deal.history),
        tricks=tuple(deal.tricks),
        card_points=tuple(deal.points),
        marriages=tuple(deal.marriages),
        legal=legal,
    )


def _cards_list(cards: list[int]) -> list[Card]:
    return [_cards_of(1 << c)[0] for c in cards]


def known_cards(view: View) -> int:
    """Mask of every card a view shows (for tests and bots)."""
    mask = 0
    for group in (view.hand or (), view.talon or ()):
        for c in group:
            mask |= c.mask
    if view.given_to_me is not None:
        mask |= view.given_to_me.mask
    for _, c in (*view.given_by_me, *view.trick, *view.last_trick):
        mask |= c.mask
    for trick in view.played_tricks:
        for _, c in trick:
            mask |= c.mask
    return mask


__all__ = ["View", "known_cards", "mask_points", "view_for"]
