"""The endgame solved exactly: the last few tricks of one sampled world, every hand open.

With few cards left the rest of a deal is small enough to search completely. The declarer
plays against the defenders as a team (docs/spec.md §2.6, §2.7): the value of a position is
the card points and marriages the declarer still takes with best play on both sides. The
search is alpha–beta with a transposition table of bounds keyed by the cards in each hand,
the trick on the table, the leader and the trump, so that positions reached by different
orders are searched once. It follows the engine's rules on bitmasks instead of copying
``Deal`` objects: a test proves it equal to a brute-force search through the engine.

Used by :mod:`games.bots.search` at the end of every simulated deal and, when few tricks
remain at a real decision, for every candidate card on every sample.
"""

from __future__ import annotations

from games.engine.actions import PLAYS
from games.engine.cards import ACES_MASK, CARD_POINTS, KQ_MASKS, MARRIAGE_VALUES, SUIT_MASKS
from games.engine.deal import Deal, Phase

from .policy import bits

_KING = 3
_QUEEN = 2
_ACE = 5
ACE_MARRIAGE = 200
INF = 10_000


def _cards_desc(mask: int) -> list[int]:
    out = []
    while mask:
        c = mask.bit_length() - 1
        out.append(c)
        mask ^= 1 << c
    return out


class Solver:
    """Exact values of play positions for one deal layout family. Keep one per decision:
    its table is shared by every sample and every candidate (the key holds the hands)."""

    __slots__ = ("ace_marriage", "declarer", "nodes", "order", "table", "trick_size")

    def __init__(self, *, declarer: int, order: tuple[int, ...], ace_marriage: bool) -> None:
        self.declarer = declarer
        self.order = order  # the active seats, clockwise
        self.trick_size = len(order)
        self.ace_marriage = ace_marriage
        # key -> (lower bound, upper bound, the card that makes the exact value or -1)
        self.table: dict[tuple[object, ...], tuple[int, int, int]] = {}
        self.nodes = 0

    def _next(self, seat: int) -> int:
        order = self.order
        return order[(order.index(seat) + 1) % self.trick_size]

    def value(
        self,
        hands: tuple[int, ...],
        trick: tuple[int, ...],
        seats: tuple[int, ...],
        to_act: int,
        trump: int,
        marriages_on: bool,
        alpha: int = -INF,
        beta: int = INF,
    ) -> int:
        """The declarer's future card points and marriages under best play."""
        if not hands[to_act] and not trick:
            return 0
        key = (hands, trick, to_act, trump, marriages_on)
        entry = self.table.get(key)
        if entry is not None:
            lo, hi, _ = entry
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
            alpha = max(alpha, lo)
            beta = min(beta, hi)
        a0, b0 = alpha, beta
        self.nodes += 1
        hand = hands[to_act]
        maximise = to_act == self.declarer
        if trick:
            legal = hand & SUIT_MASKS[trick[0] // 6]
            if not legal and trump >= 0:
                legal = hand & SUIT_MASKS[trump]
            if not legal:
                legal = hand
        else:
            legal = hand
        best = -INF if maximise else INF
        best_card = -1
        for card in _cards_desc(legal):
            v = self.after(hands, trick, seats, to_act, trump, marriages_on, card, alpha, beta)
            if maximise:
                if v > best:
                    best = v
                    best_card = card
                if best > alpha:
                    alpha = best
            else:
                if v < best:
                    best = v
                    best_card = card
                if best < beta:
                    beta = best
            if alpha >= beta:
                break
        lo, hi, card = entry if entry is not None else (-INF, INF, -1)
        if best <= a0:
            hi = min(hi, best)
        elif best >= b0:
            lo = max(lo, best)
        else:
            # Inside the window the value is exact, and so is the card: the first one,
            # high to low, that makes it (an earlier card of the same value would have
            # been searched inside the window too, and kept).
            lo = hi = best
            card = best_card
        self.table[key] = (lo, hi, card)
        return best

    def line_card(
        self,
        hands: tuple[int, ...],
        trick: tuple[int, ...],
        to_act: int,
        trump: int,
        marriages_on: bool,
        value: int,
    ) -> int:
        """The first card, high to low, that keeps the position at ``value``, when a
        search already proved it (else -1): following a solved line needs no search."""
        entry = self.table.get((hands, trick, to_act, trump, marriages_on))
        if entry is not None and entry[0] == entry[1] == value:
            return entry[2]
        return -1

    def after(
        self,
        hands: tuple[int, ...],
        trick: tuple[int, ...],
        seats: tuple[int, ...],
        seat: int,
        trump: int,
        marriages_on: bool,
        card: int,
        alpha: int,
        beta: int,
    ) -> int:
        """Value after ``seat`` plays ``card``."""
        gain = 0
        hand = hands[seat]
        if not trick and marriages_on:
            rank = card % 6
            if rank == _KING or rank == _QUEEN:
                suit = card // 6
                if hand & KQ_MASKS[suit] == KQ_MASKS[suit]:
                    trump = suit
                    if seat == self.declarer:
                        gain = MARRIAGE_VALUES[suit]
            elif (
                rank == _ACE
                and self.ace_marriage
                and hand & ACES_MASK == ACES_MASK
                and seat == self.declarer
            ):
                gain = ACE_MARRIAGE
        new_hands = hands[:seat] + (hand ^ (1 << card),) + hands[seat + 1 :]
        trick = (*trick, card)
        seats = (*seats, seat)
        if len(trick) < self.trick_size:
            return gain + self.value(new_hands, trick, seats, self._next(seat), trump, marriages_on,
                                     alpha - gain, beta - gain)  # fmt: skip
        winner = seats[_winning(trick, trump)]
        pts = 0
        for c in trick:
            pts += CARD_POINTS[c]
        if winner == self.declarer:
            gain += pts
        return gain + self.value(new_hands, (), (), winner, trump, True, alpha - gain, beta - gain)


def _winning(trick: tuple[int, ...], trump: int) -> int:
    """Index of the card that takes the trick (§2.6)."""
    led = trick[0] // 6
    best = 0
    for i in range(1, len(trick)):
        c, b = trick[i], trick[best]
        cs, bs = c // 6, b // 6
        if cs == bs:
            if c > b:
                best = i
        elif cs == trump:
            best = i
    return best if trick[best] // 6 in (led, trump) else 0


def solver_for(deal: Deal) -> Solver:
    return Solver(declarer=deal.declarer, order=deal.active, ace_marriage=deal.options.ace_marriage)


def solve(deal: Deal, solver: Solver | None = None) -> int:
    """The declarer's future card points and marriages from ``deal`` (in the PLAY phase)
    under best play by the declarer against the defenders."""
    if deal.phase is not Phase.PLAY:
        return 0
    s = solver or solver_for(deal)
    return s.value(
        tuple(deal.hands),
        tuple(deal.trick),
        tuple(deal.trick_seats),
        deal.to_act,
        deal.trump,
        deal.tricks_played > 0,
    )


def cards_left(deal: Deal) -> int:
    """Cards still to be played this deal."""
    n = 0
    for s in deal.active:
        n += deal.hands[s].bit_count()
    return n


def play_exactly(deal: Deal, solver: Solver) -> None:
    """Finish ``deal`` with best play for both sides: the solver's value of the position,
    then at every turn the first card (high to low) that keeps it: the one the solve
    remembered (``Solver.line_card``), else proven with a null window (a search that only
    asks "at least v?" or "at most v?" is far cheaper)."""
    decl = deal.declarer
    v = solve(deal, solver)
    while deal.phase is Phase.PLAY:
        seat = deal.to_act
        hands = tuple(deal.hands)
        trick = tuple(deal.trick)
        seats = tuple(deal.trick_seats)
        on = deal.tricks_played > 0
        cards = bits(deal.playable_mask())
        choice = (
            cards[0] if len(cards) == 1 else solver.line_card(hands, trick, seat, deal.trump, on, v)
        )
        if choice < 0:  # not known from the solve: prove it card by card
            choice = cards[-1]
            for card in reversed(cards):
                if seat == decl:
                    keeps = (
                        solver.after(hands, trick, seats, seat, deal.trump, on, card, v - 1, v) >= v
                    )
                else:
                    keeps = (
                        solver.after(hands, trick, seats, seat, deal.trump, on, card, v, v + 1) <= v
                    )
                if keeps:
                    choice = card
                    break
        before = deal.points[decl] + deal.marriages[decl]
        deal.apply(PLAYS[choice])
        v -= deal.points[decl] + deal.marriages[decl] - before


__all__ = ["Solver", "cards_left", "play_exactly", "solve", "solver_for"]
