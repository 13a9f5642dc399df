"""Shuffling and dealing the deck: the hands and talons of a deal (docs/spec.md §2.1, §4,
§5), from a random source or from a deck order given top card first."""

from __future__ import annotations

import random
from collections.abc import Sequence

_DECK = range(24)


def deal_cards(rng: random.Random, players: int, dealer: int) -> tuple[list[int], tuple[int, ...]]:
    """Shuffle and deal: the hands (as card masks, in seat order; the resting dealer's
    empty with four players) and the talons (two with two players), docs/spec.md §2.1, §4, §5.

    The deck is ordered by 24 independent uniform keys from ``rng`` (a tie has odds
    near 2⁻⁴⁵), which is a uniform shuffle; pass a ``random.SystemRandom`` for a
    cryptographically secure deal."""
    rnd = rng.random
    keys = [rnd() for _ in _DECK]
    return deal_in_order(sorted(_DECK, key=keys.__getitem__), players, dealer)


def deal_in_order(
    order: Sequence[int], players: int, dealer: int
) -> tuple[list[int], tuple[int, ...]]:
    """Deal a deck given top card first (card indices): each hand in seat order takes the
    next cards of its size, then each talon (:func:`deal_layout`)."""
    masks = []
    pos = 0
    for size in deal_layout(players, dealer):
        m = 0
        for c in order[pos : pos + size]:
            m |= 1 << c
        masks.append(m)
        pos += size
    return masks[:players], tuple(masks[players:])


def deal_layout(players: int, dealer: int) -> list[int]:
    """Cards per hand in seat order, then per talon."""
    if players == 2:
        return [10, 10, 2, 2]
    if players == 4:
        return [0 if s == dealer else 7 for s in range(4)] + [3]
    return [7, 7, 7, 3]


__all__ = ["deal_cards", "deal_in_order", "deal_layout"]
