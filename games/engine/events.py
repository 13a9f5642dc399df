"""What applying an action caused.

Events hold only public information: the service may broadcast them to every seat and
spectator (docs/spec.md §2.3, §2.4 — given cards and a closed talon never appear here; a seat
learns them from its own view). They are plain slotted dataclasses, not frozen ones:
a frozen dataclass costs about four times as much to build, and the engine builds events
on its hot path. Treat them as read-only."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from .cards import Card, Suit


@dataclass(slots=True)
class DealStarted:
    number: int
    dealer: int
    golden: bool


@dataclass(slots=True)
class ForcedBid:
    """The automatic opening: 100, or 120 for a sitter on the barrel (§2.2, §3)."""

    seat: int
    value: int


@dataclass(slots=True)
class DarkChosen:
    seat: int


@dataclass(slots=True)
class LookChosen:
    seat: int


@dataclass(slots=True)
class BidMade:
    seat: int
    value: int


@dataclass(slots=True)
class Passed:
    seat: int


@dataclass(slots=True)
class RedealAsked:
    seat: int
    by_talon: bool


@dataclass(slots=True)
class DeclarerKnown:
    seat: int
    bid: int
    dark: bool


@dataclass(slots=True)
class TalonTaken:
    """``cards`` is ``None`` when the talon is taken closed (§2.3, §6.1)."""

    seat: int
    index: int
    cards: tuple[Card, ...] | None


@dataclass(slots=True)
class CardGiven:
    seat: int
    to: int


@dataclass(slots=True)
class ContractNamed:
    seat: int
    value: int


@dataclass(slots=True)
class DealWrittenOff:
    seat: int
    bid: int


@dataclass(slots=True)
class MarriageDeclared:
    """``suit`` is ``None`` for the ace marriage, which leaves the trump unchanged (§2.7)."""

    seat: int
    suit: Suit | None
    value: int


@dataclass(slots=True)
class CardPlayed:
    seat: int
    card: Card


@dataclass(slots=True)
class TrickWon:
    seat: int
    cards: tuple[Card, ...]
    points: int


@dataclass(slots=True)
class ScoreLine:
    """One seat's line of the score sheet (§2.8, §5, §6.1)."""

    seat: int
    role: str  # "declarer", "defender" or "resting"
    card_points: int
    marriages: int
    tricks: int
    delta: int
    bolts: int


@dataclass(slots=True)
class DealScored:
    outcome: str  # "made", "failed", "written_off"
    declarer: int
    contract: int
    dark: bool
    lines: tuple[ScoreLine, ...]


@dataclass(slots=True)
class BarrelAttempt:
    """The sitter used one of his three attempts (§3.2)."""

    seat: int
    attempts: int


@dataclass(slots=True)
class BarrelArrived:
    seat: int


@dataclass(slots=True)
class BarrelFell:
    """``reason``: "attempts", "bolts", "displaced" or "simultaneous" (the last is no fall)."""

    seat: int
    reason: str
    score: int


@dataclass(slots=True)
class BoltPenalty:
    seat: int
    score: int


@dataclass(slots=True)
class Samosval:
    seat: int
    was: int


@dataclass(slots=True)
class GoldenReset:
    """No golden contract was made: scores, bolts and the barrel return to 0 (§6.2)."""


@dataclass(slots=True)
class MatchWon:
    seat: int
    score: int


@dataclass(slots=True)
class MatchFinished:
    """The match ended after its N-th counted deal (§3.7): ``seat`` is the single highest
    score, or ``None`` when the highest score is shared."""

    seat: int | None
    deals: int


Event = Union[
    DealStarted,
    ForcedBid,
    DarkChosen,
    LookChosen,
    BidMade,
    Passed,
    RedealAsked,
    DeclarerKnown,
    TalonTaken,
    CardGiven,
    ContractNamed,
    DealWrittenOff,
    MarriageDeclared,
    CardPlayed,
    TrickWon,
    DealScored,
    BarrelAttempt,
    BarrelArrived,
    BarrelFell,
    BoltPenalty,
    Samosval,
    GoldenReset,
    MatchWon,
    MatchFinished,
]
