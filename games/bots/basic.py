"""The ``basic`` bot: fast heuristics, one decision in well under a millisecond.

Bidding reads the hand (sure tricks from aces and guarded tens, marriages it can declare,
long suits) plus what the talon and the gives usually add; it asks for a redeal with a
hand it would not bid on. As declarer it gives away its least useful cards (small cards,
singletons that leave a void, never aces or marriage halves), names the lowest contract
unless the hand is far stronger, and writes off a hopeless one. Play follows
:func:`games.bots.policy.choose_play`.
"""

from __future__ import annotations

from games.engine.actions import (
    LOOK,
    PASS,
    PLAYS,
    REDEAL,
    WRITE_OFF,
    Action,
    Bid,
    Contract,
    Give,
    Pass,
    Redeal,
    WriteOff,
)
from games.engine.views import View

from .base import require_turn
from .knowledge import knowledge_of
from .policy import cards_to_give, choose_play, estimate_points

# What the talon and the gives add to a hand's estimate while bidding.
TALON_BONUS = {2: 8, 3: 15, 4: 15}
BID_MARGIN = 5


def legal_mask(view: View) -> int:
    mask = 0
    for a in view.legal:
        if a.type == "play":
            mask |= 1 << a.card.index  # type: ignore[union-attr]
    return mask


def bid_estimate(view: View, hand: int) -> int:
    return estimate_points(hand, view.options.ace_marriage) + TALON_BONUS[view.players]


class BasicBot:
    level = "basic"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def decide(self, view: View) -> Action:
        require_turn(view)
        legal = view.legal
        phase = view.phase
        if len(legal) == 1:
            return legal[0]
        if phase == "dark_decision":
            return LOOK
        if phase == "bidding":
            return self._bid(view)
        if phase == "talon":
            return legal[0]  # both talons are face down
        if phase == "giving":
            return self._give(view)
        if phase == "contract":
            return self._contract(view)
        return self._play(view)

    def _bid(self, view: View) -> Action:
        know = knowledge_of(view)
        est = bid_estimate(view, know.hand)
        bids = [a.value for a in view.legal if isinstance(a, Bid)]
        if REDEAL in view.legal and est < 100:
            return REDEAL
        if bids and min(bids) <= est - BID_MARGIN:
            return Bid(min(bids))
        return PASS if any(isinstance(a, Pass) for a in view.legal) else view.legal[0]

    def _give(self, view: View) -> Action:
        know = knowledge_of(view)
        hand = know.hand
        gives = [a for a in view.legal if isinstance(a, Give)]
        left = len({g.to for g in gives})
        if any(isinstance(a, Redeal) for a in view.legal):
            keep = hand
            for c in cards_to_give(hand, left):
                keep &= ~(1 << c)
            if estimate_points(keep, view.options.ace_marriage) < (view.bid or 100) - 25:
                return REDEAL
        card = cards_to_give(hand, 1)[0]
        to = min(g.to for g in gives)
        for g in gives:
            if g.to == to and g.card.index == card:
                return g
        return gives[0]

    def _contract(self, view: View) -> Action:
        know = knowledge_of(view)
        est = estimate_points(know.hand, view.options.ace_marriage)
        values = [a.value for a in view.legal if isinstance(a, Contract)]
        lo, hi = min(values), max(values)
        if est < lo - 30 and any(isinstance(a, WriteOff) for a in view.legal):
            return WRITE_OFF
        value = lo
        if est - 25 >= lo + 5:
            value = min(hi, (est - 25) // 5 * 5)
        return Contract(value)

    def _play(self, view: View) -> Action:
        know = knowledge_of(view)
        card = choose_play(
            know.hand, legal_mask(view), know.trick, know.trick_seats, know.seat, know.declarer,
            know.trump, know.tricks_played, know.played, len(know.active),
        )  # fmt: skip
        return PLAYS[card]
