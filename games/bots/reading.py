"""What the strong bot reads from its view: the seats in play, the talons, a world
consistent with the calls made so far, and what the calls and a contract say about each
hand."""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.engine.cards import FULL_DECK, KQ_MASKS, SUIT_MASKS, mask_marriages
from games.engine.deal import active_seats
from games.engine.options import below_red_threshold
from games.engine.views import View

from .basic import BID_MARGIN, bid_estimate
from .policy import bits, choose_play

# The bidding reads the calls as information: a sampled world in which a seat's hand
# does not fit its calls (by the basic estimate, with this much slack) is drawn again.
CALL_SLACK = 20
# A contract named above the bid: the basic rule names it with an estimate this much
# above it (read with CALL_SLACK).
CONTRACT_READ = 25


def active(view: View) -> tuple[int, ...]:
    return active_seats(view.players, view.dealer if view.dealer is not None else 0)


def talons(view: View, taken: int) -> tuple[int, ...]:
    return (taken, 0) if view.players == 2 else (taken,)


def blind_world(view: View, rng: random.Random) -> tuple[list[int], int]:
    """A whole deal for a seat that has seen nothing: hands of the view's sizes and the
    talon it would take (two players: one of the two)."""
    order = bits(FULL_DECK)
    rng.shuffle(order)
    hands = []
    pos = 0
    for size in view.hand_sizes:
        m = 0
        for c in order[pos : pos + size]:
            m |= 1 << c
        hands.append(m)
        pos += size
    talon = 0
    for c in order[pos : pos + (2 if view.players == 2 else 3)]:
        talon |= 1 << c
    return hands, talon


def calls_made(view: View) -> list[tuple[int, int | None, int]]:
    """(seat, voluntary bid or None for a pass, the price standing when it called)."""
    out = []
    price = 0
    for i, (s, value) in enumerate(view.bids):
        if i == 0 and value is not None and s == view.forced:
            price = value  # the forced opening (or the blind 120) tells nothing
            continue
        out.append((s, value, price))
        if value is not None:
            price = value
    return out


def limit(view: View, seat: int, hand: int) -> int:
    """How far ``seat`` would bid with ``hand`` by the basic bot's rule (0: not at all)."""
    if below_red_threshold(view.options, view.scores[seat]):
        return 0
    cap = 120 + mask_marriages(hand, view.options.ace_marriage)
    return min(cap, (bid_estimate(view, hand) - BID_MARGIN) // 5 * 5)


def auction_without_me(
    view: View, rivals: list[int], holder: int, hands: Sequence[int]
) -> tuple[int, int]:
    """Who declares, and at what price, if I pass now: of the rivals still bidding (the
    holder of the standing bid goes at least as far as his bid), the one whose limit by
    the basic bot's rule is highest, paying just over the next one's limit."""
    price = view.bid or 100
    limits = sorted(
        (
            (max(limit(view, s, hands[s]), price) if s == holder else limit(view, s, hands[s]), s)
            for s in rivals
        ),
        reverse=True,
    )
    top, winner = limits[0]
    if top < price + 5 or (winner == holder and (len(limits) == 1 or limits[1][0] < price + 5)):
        return holder, price
    floor = price if winner == holder else price + 5
    second = limits[1][0] + 5 if len(limits) > 1 else floor
    return winner, min(top, max(floor, second))


class Told:
    """What the other seats have told by their calls and contract, for reading sampled
    worlds: their calls, the cards each has played and those I gave it (to tell its
    dealt hand from its hand now), and the contract a declarer named above his bid
    read as the basic contract rule's estimate (0: nothing told)."""

    __slots__ = ("calls", "gave", "named", "played")

    def __init__(self, view: View) -> None:
        me = view.seat
        n = view.players
        self.calls = [c for c in calls_made(view) if c[0] != me]
        self.played = [0] * n
        for trick in view.played_tricks:
            for s, card in trick:
                self.played[s] |= card.mask
        for s, card in view.trick:
            self.played[s] |= card.mask
        self.gave = [0] * n
        for to, card in view.given_by_me:
            self.gave[to] |= card.mask
        named = 0
        bid = view.bid
        contract = view.contract
        if (
            view.declarer is not None
            and view.declarer != me
            and not view.dark
            and contract is not None
            and bid is not None
            and contract > bid
        ):
            named = contract + CONTRACT_READ
        self.named = named


class Plays:
    """The cards played this deal, in order, for reading a sampled world by them: would
    each other seat, holding its cards in that world, have played what it did by the
    play policy (:func:`games.bots.policy.choose_play`)? A player who did not cover, did
    not cash an ace or threw a ten rather than a nine says something about his hand,
    as the calls do in the bidding."""

    __slots__ = ("declarer", "me", "played", "trick_size", "tricks")

    def __init__(self, view: View) -> None:
        assert view.seat is not None
        self.me = view.seat
        self.declarer = view.declarer if view.declarer is not None else -1
        self.trick_size = len(active(view))
        self.tricks = [[(s, c.index) for s, c in t] for t in view.played_tricks]
        if view.trick:
            self.tricks.append([(s, c.index) for s, c in view.trick])
        self.played = [0] * view.players
        for t in self.tricks:
            for s, c in t:
                self.played[s] |= 1 << c

    def misfits(self, hands: Sequence[int], stop: int = 99) -> int:
        """How many of the other seats' plays the policy would not have made with the
        cards ``hands`` give them (counted up to ``stop``)."""
        held = [h | p for h, p in zip(hands, self.played)]
        me, declarer, k = self.me, self.declarer, self.trick_size
        trump = -1
        played = 0
        miss = 0
        for t, trick in enumerate(self.tricks):
            cards: list[int] = []
            seats: list[int] = []
            for s, c in trick:
                hand = held[s]
                if s != me:
                    legal = hand
                    if cards:
                        legal = hand & SUIT_MASKS[cards[0] // 6]
                        if not legal and trump >= 0:
                            legal = hand & SUIT_MASKS[trump]
                        if not legal:
                            legal = hand
                    if (
                        legal >> c & 1
                        and choose_play(hand, legal, cards, seats, s, declarer, trump, t, played, k)
                        != c
                    ):
                        miss += 1
                        if miss >= stop:
                            return miss
                if not cards and t and c % 6 in (2, 3):
                    kq = KQ_MASKS[c // 6]
                    if hand & kq == kq:
                        trump = c // 6
                held[s] = hand & ~(1 << c)
                played |= 1 << c
                cards.append(c)
                seats.append(s)
        return miss


def fits(view: View, hand: int, bid: int | None, price: int) -> bool:
    est = bid_estimate(view, hand)
    if bid is None:
        return est < price + CALL_SLACK
    return est >= bid - CALL_SLACK


def kept(hand: int, plan: tuple[tuple[int, int], ...]) -> int:
    for _, c in plan:
        hand &= ~(1 << c)
    return hand


def contract_values(view: View, hand: int) -> list[int]:
    bid = view.bid or 100
    if view.dark:
        return [120]
    hi = max(bid, 120 + mask_marriages(hand, view.options.ace_marriage))
    return list(range(bid, hi + 1, 5))
