"""Scores from accumulated fair-play counts: pure arithmetic, shared by the app and the
bench (docs/fair-play.md). Each score is a z-score against the honest expectation, so one
threshold a kind of flag, set on honest play's distribution, bounds the honest players
and pairs flagged."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from .screen import PairCounts, Screening


@dataclass(slots=True)
class Directed:
    """What one player's decisions did to one other player, summed over their matches."""

    matches: int = 0
    chances: int = 0  # auction answers while the other held the bid
    stood: int = 0  # ... passes
    chances_rest: int = 0  # auction answers while anybody else held it
    stood_rest: int = 0
    fed: float = 0.0  # card points fed to the other beyond the least possible
    fed_rest: float = 0.0  # ... to the rest (the mean over them in a match)
    diff_sq: float = 0.0  # sum over matches of (fed − fed_rest)²
    # The answers where the reference bot would have bid over (a hand worth contesting):
    # to the other's bids, and to anybody else's; and the passes among them.
    contest: int = 0
    yielded: int = 0
    contest_rest: int = 0
    yielded_rest: int = 0

    def add(self, other: Directed) -> None:
        self.matches += other.matches
        self.chances += other.chances
        self.stood += other.stood
        self.chances_rest += other.chances_rest
        self.stood_rest += other.stood_rest
        self.fed += other.fed
        self.fed_rest += other.fed_rest
        self.diff_sq += other.diff_sq
        self.contest += other.contest
        self.yielded += other.yielded
        self.contest_rest += other.contest_rest
        self.yielded_rest += other.yielded_rest


def directed(screening: Screening, seat: int, other: int) -> Directed:
    """One match's counts of ``seat``'s decisions towards ``other`` and the rest."""
    counts = screening.seats[seat].pairs
    mine = counts.get(other, PairCounts())
    rest = [p for o, p in counts.items() if o != other]
    fed_rest = sum(p.fed for p in rest) / len(rest) if rest else float(mine.fed)
    return Directed(
        matches=1,
        chances=mine.chances,
        stood=mine.stood,
        chances_rest=sum(p.chances for p in rest),
        stood_rest=sum(p.stood for p in rest),
        fed=mine.fed,
        fed_rest=fed_rest,
        diff_sq=(mine.fed - fed_rest) ** 2,
        contest=mine.contest,
        yielded=mine.yielded,
        contest_rest=sum(p.contest for p in rest),
        yielded_rest=sum(p.yielded for p in rest),
    )


def soft_play_z(chances: int, stood: int, chances_rest: int, stood_rest: int) -> float:
    """How much more often a player let the other's bids stand than anybody else's: a
    two-proportion z (0 with too little to compare)."""
    if chances == 0 or chances_rest == 0:
        return 0.0
    pooled = (stood + stood_rest) / (chances + chances_rest)
    spread = math.sqrt(max(pooled * (1 - pooled), 0.25 / (chances + chances_rest)))
    spread *= math.sqrt(1 / chances + 1 / chances_rest)
    return (stood / chances - stood_rest / chances_rest) / spread


# The spread of one match's feeding difference assumed before any is seen (points²), and
# how many matches' worth of weight it has: a few matches of a pair that happened to
# feed alike cannot look like certainty.
PRIOR_VARIANCE = 400.0
PRIOR_MATCHES = 2


def feeding_z(fed: float, fed_rest: float, diff_sq: float, matches: int) -> float:
    """How far the points a player fed the other exceed those he fed the rest, match by
    match: a one-sample t of the mean difference (0 in honest play, where seats are
    alike), its variance shrunk towards :data:`PRIOR_VARIANCE`."""
    if matches == 0:
        return 0.0
    total = fed - fed_rest
    mean = total / matches
    spread = max(diff_sq - total * mean, 0.0) + PRIOR_MATCHES * PRIOR_VARIANCE
    variance = spread / (matches - 1 + PRIOR_MATCHES)
    return mean / math.sqrt(variance / matches)


def pair_score(ab: Directed, ba: Directed) -> tuple[float, dict[str, float]]:
    """A pair's score: the largest of its soft-play z (both directions pooled; counted on
    the answers with a hand worth contesting) and each direction's feeding z; with the
    parts, for the evidence. ``let_stand`` (every answer, whatever the hand) is shown,
    not scored: a pass with a hopeless hand says nothing."""
    parts = {
        "soft_play": soft_play_z(
            ab.contest + ba.contest,
            ab.yielded + ba.yielded,
            ab.contest_rest + ba.contest_rest,
            ab.yielded_rest + ba.yielded_rest,
        ),
        "feeding_ab": feeding_z(ab.fed, ab.fed_rest, ab.diff_sq, ab.matches),
        "feeding_ba": feeding_z(ba.fed, ba.fed_rest, ba.diff_sq, ba.matches),
    }
    let_stand = soft_play_z(
        ab.chances + ba.chances,
        ab.stood + ba.stood,
        ab.chances_rest + ba.chances_rest,
        ab.stood_rest + ba.stood_rest,
    )
    return max(parts.values()), {**parts, "let_stand": let_stand}


def engine_z(checked: int, agreed: int, expected: float) -> float:
    """How far a player's agreement with master exceeds what his level explains
    (``expected``: the agreement of players of his level), a binomial z."""
    if checked == 0:
        return 0.0
    p = min(max(expected, 0.02), 0.98)
    return (agreed - checked * p) / math.sqrt(checked * p * (1 - p))


# The engine user the likelihood ratio weighs against honest play: one who plays
# master's choice at this share of his decisions.
ENGINE_SHARE = 0.5


def engine_llr(
    split: int, split_agreed: int, expected: float, share: float = ENGINE_SHARE
) -> float:
    """The log-likelihood ratio of a player's agreement with master on the decisions
    where master's choice differs from the reference bot's: "he plays master's choice at
    ``share`` of them, and his own level's elsewhere" against "he agrees at his level's
    rate ``expected``". Under honest play the ratio is a martingale, so whatever the
    number of matches, the chance that an honest player's ever reaches e**t is at most
    e**−t (Ville's inequality) — as far as ``expected`` is right for him."""
    if split == 0:
        return 0.0
    q = min(max(expected, 0.01), 0.99)
    p = share + (1 - share) * q
    return split_agreed * math.log(p / q) + (split - split_agreed) * math.log((1 - p) / (1 - q))


# The clock. A decision is "steady" when it took within this share of the player's
# median think time in the match (a person's times spread widely: quick on the obvious,
# slow on the hard; a player who waits for a program takes near the same time at every
# decision). Hard decisions: at least this many legal choices.
STEADY_BAND = 0.25
HARD_CHOICES = 4
# Fewer timed decisions of a seat in a match than this say nothing of his spread.
MIN_TIMED = 6


@dataclass(slots=True)
class ClockCounts:
    """One seat's timed decisions in one match (those with a choice, made by the person)."""

    timed: int = 0
    steady: int = 0  # within :data:`STEADY_BAND` of his median think time
    hard: int = 0
    hard_seconds: float = 0.0
    easy: int = 0
    easy_seconds: float = 0.0

    def to_dict(self) -> dict[str, float]:
        return {
            "timed": self.timed, "steady": self.steady, "hard": self.hard,
            "hard_seconds": round(self.hard_seconds, 2), "easy": self.easy,
            "easy_seconds": round(self.easy_seconds, 2),
        }  # fmt: skip


def clock_counts(moves: Sequence[tuple[float, int]]) -> ClockCounts:
    """The clock's counts of one seat's decisions in one match: ``moves`` are (think
    seconds, legal choices) of each decision he made with a choice. Fewer than
    :data:`MIN_TIMED` count nothing."""
    times = [max(t, 0.0) for t, _ in moves]
    if len(times) < MIN_TIMED:
        return ClockCounts()
    median = statistics.median(times)
    low, high = median * (1 - STEADY_BAND), median * (1 + STEADY_BAND)
    out = ClockCounts(timed=len(times), steady=sum(low <= t <= high for t in times))
    for t, choices in moves:
        if choices >= HARD_CHOICES:
            out.hard += 1
            out.hard_seconds += max(t, 0.0)
        else:
            out.easy += 1
            out.easy_seconds += max(t, 0.0)
    return out


def clock_z(timed: int, steady: int, expected: float) -> float:
    """How far the share of a player's decisions taken in his usual time exceeds the
    share of other players (``expected``), a binomial z."""
    return engine_z(timed, steady, expected)


def threshold_at(honest: list[float], share: float) -> float:
    """The lowest score that flags at most ``share`` of ``honest`` scores."""
    if not honest:
        return math.inf
    ranked = sorted(honest, reverse=True)
    allowed = int(share * len(ranked))
    # Flag strictly above the (allowed+1)-th highest honest score.
    return ranked[allowed] + 1e-9 if allowed < len(ranked) else -math.inf


__all__ = [
    "ClockCounts",
    "Directed",
    "clock_counts",
    "clock_z",
    "directed",
    "engine_llr",
    "engine_z",
    "feeding_z",
    "pair_score",
    "soft_play_z",
    "threshold_at",
]
