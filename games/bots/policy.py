"""Fast card-level heuristics on integer cards and bitmasks.

These are the craft rules of the ``basic`` bot, written against plain integers so that the
``strong`` bot can use them, unchanged, as the policy of its simulated players. Each
function sees only what its player may see: his own hand, the cards played so far, the
trick on the table, the trump and who declared.
"""

from __future__ import annotations

from games.engine.actions import PLAYS
from games.engine.cards import ACES_MASK, CARD_POINTS, KQ_MASKS, MARRIAGE_VALUES, SUIT_MASKS
from games.engine.deal import Deal, Phase

_PLAY = Phase.PLAY
# Cards of the same suit ranked above each card.
HIGHER: tuple[int, ...] = tuple(SUIT_MASKS[c // 6] & ~((2 << c) - 1) for c in range(24))
PARTNER: tuple[int, ...] = tuple(c ^ 1 if c % 6 in (2, 3) else -1 for c in range(24))


def bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def is_master(card: int, hand: int, played: int) -> bool:
    """No card of its suit above it is still out (in another hand or a hidden pile)."""
    return not HIGHER[card] & ~(hand | played)


def beats(card: int, best: int, led: int, trump: int) -> bool:
    suit = card // 6
    if suit == trump:
        return best // 6 != trump or card > best
    if best // 6 == trump:
        return False
    return suit == led and card > best


def _in_marriage(card: int, hand: int) -> bool:
    p = PARTNER[card]
    return p >= 0 and bool(hand >> p & 1)


def _cost(card: int, hand: int, played: int, trump: int) -> int:
    """How much it hurts to throw ``card`` away."""
    cost = CARD_POINTS[card] * 2
    if _in_marriage(card, hand):
        cost += 20 + MARRIAGE_VALUES[card // 6] // 2
    if is_master(card, hand, played):
        cost += 15
    if card // 6 == trump:
        cost += 6
    n_suit = (hand & SUIT_MASKS[card // 6]).bit_count()
    if n_suit == 1 and not is_master(card, hand, played):
        cost -= 2  # leaves a void
    return cost


def choose_play(
    hand: int,
    legal: int,
    trick: list[int] | tuple[int, ...],
    trick_seats: list[int] | tuple[int, ...],
    seat: int,
    declarer: int,
    trump: int,
    tricks_played: int,
    played: int,
    trick_size: int,
) -> int:
    """The card to play: cash masters, declare marriages, keep trumps, feed a winning
    partner in defence, win cheaply when last, otherwise throw the cheapest card."""
    if not trick:
        return _lead(hand, seat, declarer, trump, tricks_played, played)
    led = trick[0] // 6
    wi = 0
    best = trick[0]
    for i in range(1, len(trick)):
        if beats(trick[i], best, led, trump):
            wi, best = i, trick[i]
    wseat = trick_seats[wi]
    last = len(trick) == trick_size - 1
    cards = bits(legal)
    if trick_size == 3 and seat != declarer and wseat != declarer:
        # The partner in defence holds the trick.
        safe = last or (
            is_master(best, hand, played) and (trump < 0 or best // 6 == trump or led != trump)
        )
        if safe:
            feed = [c for c in cards if not _in_marriage(c, hand) and c % 6 != 5]
            if feed:
                return max(feed, key=lambda c: (CARD_POINTS[c], -c))
        return min(cards, key=lambda c: _cost(c, hand, played, trump))
    winners = [c for c in cards if beats(c, best, led, trump)]
    if winners:
        if last:
            plain = [
                c for c in winners if not is_master(c, hand, played) and not _in_marriage(c, hand)
            ]
            if plain:
                return max(plain, key=lambda c: CARD_POINTS[c])
            return min(winners, key=lambda c: _cost(c, hand, played, trump))
        masters = [c for c in winners if is_master(c, hand, played)]
        if masters and (trump < 0 or masters[0] // 6 == trump or led != trump):
            return max(masters, key=lambda c: CARD_POINTS[c])
        trumps = [c for c in winners if c // 6 == trump and led != trump]
        if trumps and (sum(CARD_POINTS[c] for c in trick) >= 4 or seat == declarer):
            return min(trumps, key=lambda c: _cost(c, hand, played, trump))
    return min(cards, key=lambda c: _cost(c, hand, played, trump))


def _lead(hand: int, seat: int, declarer: int, trump: int, tricks_played: int, played: int) -> int:
    if tricks_played >= 1:
        for s in (3, 2, 1, 0):
            kq = KQ_MASKS[s]
            if hand & kq == kq:
                king = 6 * s + 3
                return king if is_master(king, hand, played) else king - 1
    cards = bits(hand)
    if trump >= 0 and seat == declarer:
        out = SUIT_MASKS[trump] & ~(hand | played)
        if out:
            tm = [c for c in cards if c // 6 == trump and is_master(c, hand, played)]
            if tm:
                return max(tm)
    masters = [
        c
        for c in cards
        if is_master(c, hand, played) and c // 6 != trump and not _in_marriage(c, hand)
    ]
    if masters:
        return max(masters, key=lambda c: (CARD_POINTS[c], c))
    if trump >= 0:
        tm = [c for c in cards if c // 6 == trump and is_master(c, hand, played)]
        if tm and seat == declarer:
            return max(tm)

    def lead_cost(c: int) -> tuple[int, int]:
        cost = CARD_POINTS[c] * 2
        if _in_marriage(c, hand):
            cost += 100
        if c % 6 == 4 and not (hand | played) >> (c + 1) & 1:
            cost += 25  # a ten led under an ace still out
        if c // 6 == trump and seat != declarer:
            cost += 8
        return cost, -(hand & SUIT_MASKS[c // 6]).bit_count()

    return min(cards, key=lead_cost)


def rollout(deal: Deal, stop: int = 0) -> Deal:
    """Play ``deal`` with :func:`choose_play` for every seat (in place) to its end, or
    until only ``stop`` cards are left to play."""
    trick_size = deal.trick_size
    declarer = deal.declarer
    while deal.phase == _PLAY:
        if stop and (deal.total_tricks - deal.tricks_played) * trick_size - len(deal.trick) <= stop:
            break
        seat = deal.to_act
        card = choose_play(
            deal.hands[seat], deal.playable_mask(), deal.trick, deal.trick_seats, seat, declarer,
            deal.trump, deal.tricks_played, deal.played, trick_size,
        )  # fmt: skip
        deal.apply(PLAYS[card])
    return deal


# -- hand evaluation ---------------------------------------------------------------------


def estimate_points(hand: int, ace_marriage: bool) -> int:
    """Rough card points plus marriages a declarer holding ``hand`` (8 or 11 cards after the
    gives) can expect to take."""
    value = 5
    winners = 0
    for s in range(4):
        m = hand >> (6 * s) & 63
        n = m.bit_count()
        if m & 32:  # ace
            value += 11
            winners += 1
            if m & 16:
                value += 10
                winners += 1
        elif m & 16 and n >= 3:
            value += 5
        if n >= 4:
            value += 6 * (n - 3)
    value += 8 * winners
    marriages = 0
    for s in range(4):
        if hand & KQ_MASKS[s] == KQ_MASKS[s]:
            marriages += MARRIAGE_VALUES[s]
            value += 5 + 4 * max(0, (hand & SUIT_MASKS[s]).bit_count() - 2)
    if ace_marriage and hand & ACES_MASK == ACES_MASK:
        marriages += 200
    value += marriages if winners else marriages * 6 // 10
    return value


def keep_value(card: int, hand: int) -> int:
    """How much a declarer wants to keep ``card`` rather than give it away."""
    suit = hand & SUIT_MASKS[card // 6]
    rank = card % 6
    value = CARD_POINTS[card] * 3
    if rank == 5:
        value += 60
    elif rank == 4 and suit >> (card + 1) & 1:
        value += 45  # ten with its ace
    if _in_marriage(card, hand):
        value += 80
    n = suit.bit_count()
    value += 4 * n
    if n == 1 and rank < 5:
        value -= 10  # giving it away leaves a void
    return value


def cards_to_give(hand: int, count: int) -> list[int]:
    """The ``count`` cards a declarer would rather not keep, worst first."""
    order = sorted(bits(hand), key=lambda c: (keep_value(c, hand), c))
    return order[:count]
