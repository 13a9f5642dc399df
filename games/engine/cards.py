"""Cards, suits, ranks and card points (docs/spec.md §1).

Inside the engine a card is an integer ``suit * 6 + rank`` (0..23) and a set of cards is a
24-bit mask, so hands copy for free and legality is a few bit operations. The public
:class:`Card` wraps that integer; :data:`CARDS` holds the 24 interned instances.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from .errors import MalformedCard


class Suit(IntEnum):
    """Suits; the integer is the suit's block of six bits in a card mask."""

    SPADES = 0  # пики
    CLUBS = 1  # трефы
    DIAMONDS = 2  # бубны
    HEARTS = 3  # червы

    @property
    def letter(self) -> str:
        return "SCDH"[self]

    @property
    def marriage_value(self) -> int:
        """Value of this suit's K+Q marriage: ♠ 40, ♣ 60, ♦ 80, ♥ 100 (docs/spec.md §1)."""
        return MARRIAGE_VALUES[self]


class Rank(IntEnum):
    """Ranks in trick-taking order, low to high: 9, J, Q, K, 10, A (docs/spec.md §1)."""

    NINE = 0
    JACK = 1
    QUEEN = 2
    KING = 3
    TEN = 4
    ACE = 5

    @property
    def letter(self) -> str:
        return "9JQKTA"[self]

    @property
    def points(self) -> int:
        return RANK_POINTS[self]


RANK_POINTS = (0, 2, 3, 4, 10, 11)
MARRIAGE_VALUES = (40, 60, 80, 100)
ACE_MARRIAGE_VALUE = 200

_SUIT_LETTERS = "SCDH"
_RANK_LETTERS = "9JQKTA"


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One of the 24 cards. Use :func:`parse_card` or :data:`CARDS`; ``str`` gives ``"TH"``."""

    index: int

    @property
    def suit(self) -> Suit:
        return Suit(self.index // 6)

    @property
    def rank(self) -> Rank:
        return Rank(self.index % 6)

    @property
    def points(self) -> int:
        return RANK_POINTS[self.index % 6]

    @property
    def mask(self) -> int:
        return 1 << self.index

    def __str__(self) -> str:
        return CARD_NAMES[self.index]

    def __repr__(self) -> str:
        return f"Card({CARD_NAMES[self.index]})"


CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(24))
CARD_NAMES: tuple[str, ...] = tuple(r + s for s in _SUIT_LETTERS for r in _RANK_LETTERS)
_BY_NAME: dict[str, int] = {name: i for i, name in enumerate(CARD_NAMES)}
_BY_NAME.update({"10" + name[1]: i for i, name in enumerate(CARD_NAMES) if name[0] == "T"})

FULL_DECK = (1 << 24) - 1
SUIT_MASKS: tuple[int, ...] = tuple(0b111111 << (6 * s) for s in range(4))
KQ_MASKS: tuple[int, ...] = tuple(
    (1 << (6 * s + Rank.KING)) | (1 << (6 * s + Rank.QUEEN)) for s in range(4)
)
ACES_MASK = sum(1 << (6 * s + Rank.ACE) for s in range(4))
NINES_MASK = sum(1 << (6 * s + Rank.NINE) for s in range(4))
JACKS_MASK = sum(1 << (6 * s + Rank.JACK) for s in range(4))
CARD_POINTS: tuple[int, ...] = tuple(RANK_POINTS[i % 6] for i in range(24))
# Card points of every 6-bit suit pattern, so a mask's points are four table look-ups.
_SUIT_PATTERN_POINTS: tuple[int, ...] = tuple(
    sum(RANK_POINTS[r] for r in range(6) if pattern >> r & 1) for pattern in range(64)
)

# Marriage value (0 or the suit's) of every 6-bit pattern of each suit: K is bit 3, Q bit 2.
_SUIT_PATTERN_MARRIAGE: tuple[tuple[int, ...], ...] = tuple(
    tuple(MARRIAGE_VALUES[s] if pattern & 0b1100 == 0b1100 else 0 for pattern in range(64))
    for s in range(4)
)


def parse_card(text: str) -> Card:
    """Parse ``"TH"``, ``"10H"``, ``"QS"``…; upper case only (docs/spec.md §8)."""
    if not isinstance(text, str) or text not in _BY_NAME:
        raise MalformedCard(f"not a card: {text!r}")
    return CARDS[_BY_NAME[text]]


def card_index(text: object) -> int:
    """Like :func:`parse_card` but returns the integer index."""
    if not isinstance(text, str) or text not in _BY_NAME:
        raise MalformedCard(f"not a card: {text!r}")
    return _BY_NAME[text]


def mask_points(mask: int) -> int:
    """Card points of a set of cards."""
    t = _SUIT_PATTERN_POINTS
    return t[mask & 63] + t[mask >> 6 & 63] + t[mask >> 12 & 63] + t[mask >> 18 & 63]


def mask_marriages(mask: int, ace_marriage: bool) -> int:
    """Sum of the marriages held in ``mask``: K+Q of a suit, and 200 for four aces when
    the ace marriage is on. This is what a bid or contract cap adds to 120 (docs/spec.md §2.2,
    §2.5, §9.2)."""
    m = _SUIT_PATTERN_MARRIAGE
    total = m[0][mask & 63] + m[1][mask >> 6 & 63] + m[2][mask >> 12 & 63] + m[3][mask >> 18 & 63]
    if ace_marriage and mask & ACES_MASK == ACES_MASK:
        total += ACE_MARRIAGE_VALUE
    return total


def mask_cards(mask: int) -> tuple[Card, ...]:
    """The cards of a mask, in index order (suit by suit, low rank first)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(CARDS[low.bit_length() - 1])
        mask ^= low
    return tuple(out)


def round5(x2: int) -> int:
    """``round5`` of docs/spec.md (nearest multiple of 5, halves up: 12→10, 13→15, 17→15, 18→20)
    applied to ``x2 / 2``; taking twice the value keeps write-off halves exact (105 → 50)."""
    return 5 * ((x2 + 4) // 10)


def round5_int(x: int) -> int:
    """``round5(x) = 5 * floor((x + 2) / 5)`` for an integer (docs/spec.md, Notation)."""
    return 5 * ((x + 2) // 5)
