"""Sampling the cards a seat cannot see, consistently with its :class:`Knowledge`
(determinization; ``games.engine.position`` builds the engine deal from a sample).

A sample gives every other seat exactly as many cards as it holds, never a card of a suit
it is known to be void in nor one it is known not to hold, keeps the known cards where
they are, and fills the hidden piles (an untaken talon) with the rest. Cards go one at a
time, the most constrained first, each to a seat drawn in proportion to the room it has
left; a dead end restarts, and after many restarts the soft constraints (voids, exclusions)
are dropped rather than fail.
"""

from __future__ import annotations

import random

from games.engine.cards import mask_marriages

from .knowledge import Knowledge, suit_void_mask

_RESTARTS = 40


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def sample_hands(
    know: Knowledge, rng: random.Random, tries: int = 12
) -> tuple[list[int], list[int]]:
    """One layout of the unseen cards: (hands per seat, hidden piles). My hand is mine.

    A seat that bid over 120 must have been dealt marriages worth the excess (docs/spec.md §2.2):
    layouts that deny it are drawn again, up to ``tries`` times."""
    floors = [s for s in range(know.players) if know.marriage_floor[s] > 0]
    layout = _sample_once(know, rng)
    if not floors:
        return layout
    ace = know.ace_marriage
    for _ in range(tries):
        hands = layout[0]
        if all(
            mask_marriages(hands[s] | know.gone_from[s], ace) >= know.marriage_floor[s]
            for s in floors
        ):
            break
        layout = _sample_once(know, rng)
    return layout


def _sample_once(know: Knowledge, rng: random.Random) -> tuple[list[int], list[int]]:
    n = know.players
    me = know.seat
    hands = list(know.known)
    hands[me] = know.hand
    pool = know.unseen
    if know.maybe_talon:
        other = know.maybe_seat
        forbid = suit_void_mask(know.voids[other]) | know.excluded[other]
        decl = know.declarer
        rest = know.maybe_talon
        n_rest = rest.bit_count()
        # Room left in each hand if the other defender got one talon card, or none.
        room_decl = know.sizes[decl] - hands[decl].bit_count() - n_rest
        room_other = know.sizes[other] - hands[other].bit_count()
        cands = []
        if room_other >= 1 and room_decl + 1 >= 0:
            cands = [c for c in _bits(rest) if not forbid >> c & 1]
        none_weight = know.maybe_odds if room_decl >= 0 else 0
        pick = -1
        total = len(cands) + none_weight
        if total > 0:
            r = rng.randrange(total)
            if r < len(cands):
                pick = cands[r]
        elif room_decl < 0 and rest:
            pick = _bits(rest)[rng.randrange(n_rest)]
        if pick >= 0:
            hands[other] |= 1 << pick
            rest &= ~(1 << pick)
        hands[know.declarer] |= rest

    bins: list[int] = []  # seat numbers, then -1 - pile index
    room: list[int] = []
    forbid_of: list[int] = []
    for s in range(n):
        if s == me:
            continue
        free = know.sizes[s] - hands[s].bit_count()
        if know.sizes[s] == 0 and free <= 0:
            continue
        bins.append(s)
        room.append(max(free, 0))
        forbid_of.append(suit_void_mask(know.voids[s]) | know.excluded[s])
    for i, size in enumerate(know.piles):
        bins.append(-1 - i)
        room.append(size)
        forbid_of.append(0)

    cards = _bits(pool)
    # The most constrained cards first.
    cards.sort(key=lambda c: sum(1 for f in forbid_of if not f >> c & 1))
    piles = [0] * len(know.piles)
    nb = len(bins)
    for attempt in range(_RESTARTS + 1):
        strict = attempt < _RESTARTS
        left = room[:]
        got = [0] * nb
        ok = True
        for c in cards:
            total = 0
            for b in range(nb):
                if left[b] and (not strict or not forbid_of[b] >> c & 1):
                    total += left[b]
            if total == 0:
                if strict:
                    ok = False
                    break
                # Room ran out (inconsistent sizes): put the card anywhere.
                b = rng.randrange(nb) if nb else -1
                if b >= 0:
                    got[b] |= 1 << c
                continue
            r = rng.randrange(total)
            for b in range(nb):
                if left[b] and (not strict or not forbid_of[b] >> c & 1):
                    r -= left[b]
                    if r < 0:
                        break
            left[b] -= 1
            got[b] |= 1 << c
        if ok:
            for b in range(nb):
                key = bins[b]
                if key >= 0:
                    hands[key] |= got[b]
                else:
                    piles[-1 - key] = got[b]
            break
    _repair(hands, piles, know, rng)
    return hands, piles


def _repair(hands: list[int], piles: list[int], know: Knowledge, rng: random.Random) -> None:
    """Make every hand its known size, whatever went wrong (a knowledge gap must not
    break a simulation): surplus cards move to the hands and piles that lack some."""
    me = know.seat
    spare = 0
    for s in range(know.players):
        if s == me:
            continue
        extra = hands[s].bit_count() - know.sizes[s]
        while extra > 0:
            cards = _bits(hands[s])
            c = cards[rng.randrange(len(cards))]
            hands[s] &= ~(1 << c)
            spare |= 1 << c
            extra -= 1
    for i, size in enumerate(know.piles):
        while piles[i].bit_count() > size:
            cards = _bits(piles[i])
            c = cards[rng.randrange(len(cards))]
            piles[i] &= ~(1 << c)
            spare |= 1 << c
    if not spare:
        return
    cards = _bits(spare)
    for s in range(know.players):
        while s != me and hands[s].bit_count() < know.sizes[s] and cards:
            hands[s] |= 1 << cards.pop()
    for i, size in enumerate(know.piles):
        while piles[i].bit_count() < size and cards:
            piles[i] |= 1 << cards.pop()


__all__ = ["sample_hands"]
