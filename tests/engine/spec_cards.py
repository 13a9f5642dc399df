"""docs/spec.md §1 written out by hand for the property tests: card points, the order
within a suit, marriages, rounding to 5 and the winner of a trick, over card names (never
the engine's own tables)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from games.engine import (
    CARDS,
)

FULL = (1 << 24) - 1
POINTS = {"9": 0, "J": 2, "Q": 3, "K": 4, "T": 10, "A": 11}
ORDER = "9JQKTA"  # low to high within a suit
MARRIAGE = {"S": 40, "C": 60, "D": 80, "H": 100}
NAME = {c.index: str(c) for c in CARDS}
BY_NAME = {str(c): c for c in CARDS}


def names(mask: int) -> set[str]:
    return {str(c) for c in CARDS if mask & c.mask}


def mask_of(cards: Any) -> int:
    m = 0
    for c in cards:
        m |= BY_NAME[str(c)].mask
    return m


def points(cards: Any) -> int:
    return sum(POINTS[str(c)[0]] for c in cards)


def marriages(cards: set[str], ace_marriage: bool) -> int:
    total = sum(v for s, v in MARRIAGE.items() if "K" + s in cards and "Q" + s in cards)
    if ace_marriage and all("A" + s in cards for s in MARRIAGE):
        total += 200
    return total


def round5(x: Fraction | int) -> int:
    """docs/spec.md notation: 5 * floor((x + 2) / 5)."""
    return 5 * ((Fraction(x) + 2) // 5)


def trick_winner(trick: list[tuple[int, str]], trump: str | None) -> int:
    """§2.6: the highest trump, else the highest card of the suit led."""
    trumps = [(ORDER.index(c[0]), s) for s, c in trick if c[1] == trump]
    if trumps:
        return max(trumps)[1]
    led = trick[0][1][1]
    return max((ORDER.index(c[0]), s) for s, c in trick if c[1] == led)[1]


def popcount(m: int) -> int:
    return bin(m).count("1")
