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
    # Card points fed to the other beyond the least possible (only in deals where one of
    # the two declared: the screening counts nothing between fellow defenders).
    fed: float = 0.0
    # What ``fed`` is weighed against, match by match: ``fed`` less the match's feeding
    # difference (:func:`feeding_difference`); as much as he fed the rest (the mean over
    # them) when he had as many chances to feed each.
    fed_rest: float = 0.0
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
    difference = feeding_difference(
        mine.fed, mine.feeds, sum(p.fed for p in rest), sum(p.feeds for p in rest), len(rest)
    )
    fed_rest = mine.fed - difference
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


def feeding_difference(
    fed: float, feeds: int, fed_rest: float, feeds_rest: int, rest: int = 1
) -> float:
    """How many more points a player fed the other than one of the ``rest`` other seats
    in one match, had he had as many chances to feed each: the difference of his points a
    chance (``fed`` in ``feeds`` chances to the other; ``fed_rest`` in ``feeds_rest`` to
    the rest together), times the harmonic mean of his chances to the other and to one of
    the rest — with as many chances to each, the plain difference of points. The chances
    differ because feeding is counted only between the declarer and a defender: a player
    has more chances to feed whoever declares more often, and an honest player's points
    follow his chances. 0 when he had no chance to feed one side (nothing to compare)."""
    if feeds == 0 or feeds_rest == 0 or rest == 0:
        return 0.0
    each = feeds_rest / rest
    harmonic = 2 * feeds * each / (feeds + each)
    return harmonic * (fed / feeds - fed_rest / feeds_rest)


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


# The engine users the likelihood ratio weighs against honest play: one who plays
# master's choice at any of these shares of his decisions, each as likely.
ENGINE_SHARES = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)


def engine_llr(
    split: int,
    split_agreed: int,
    expected: float,
    shares: Sequence[float] = ENGINE_SHARES,
    spread: float = 0.0,
) -> float:
    """The log-likelihood ratio of a player's agreement with master on the decisions
    where master's choice differs from the reference bot's: "he plays master's choice at
    a share of them (any of ``shares``, each as likely), and his own rate elsewhere"
    against "he agrees at his own rate". His own rate is not known: it is taken to be
    spread around his level's rate ``expected`` with the standard deviation ``spread``
    between the honest players of that level (a beta distribution; 0: exactly his
    level's), and both hypotheses are averaged over it. Under honest play the ratio is a
    martingale, so whatever the number of matches, the chance that an honest player's
    ever reaches e**t is at most e**−t (Ville's inequality) — as far as his level's rate
    and spread are right for him. With a spread, an honest player a little above his
    level's rate is not found "certainly" by sheer numbers of decisions, as he would be
    against a single rate."""
    if split == 0:
        return 0.0
    q = min(max(expected, 0.01), 0.99)
    k, n = split_agreed, split
    if spread < 2 / SPREAD_GRID:  # narrower than the grid can tell: his level's rate
        rates, priors = [q], [0.0]
    else:
        # Beta(a, b) with mean q and variance spread² (kept a proper one).
        variance = min(spread**2, q * (1 - q) * 0.5)
        size = q * (1 - q) / variance - 1
        a, b = q * size, (1 - q) * size
        rates = [(i + 0.5) / SPREAD_GRID for i in range(SPREAD_GRID)]
        priors = [(a - 1) * math.log(r) + (b - 1) * math.log(1 - r) for r in rates]
    honest, engine = [], []
    for r, prior in zip(rates, priors, strict=True):
        honest.append(prior + k * math.log(r) + (n - k) * math.log(1 - r))
        for share in shares:
            p = min(share + (1 - share) * r, 1 - 1e-9)
            engine.append(prior + k * math.log(p) + (n - k) * math.log(1 - p))
    # Each rate's prior weight is shared by its ``len(shares)`` engine hypotheses.
    return _log_sum_exp(engine) - math.log(len(shares)) - _log_sum_exp(honest)


# Points of the grid the rates are averaged over.
SPREAD_GRID = 400


def _log_sum_exp(values: list[float]) -> float:
    top = max(values)
    return top + math.log(sum(math.exp(v - top) for v in values))


def level_spread(rates: Sequence[tuple[int, int]], expected: float) -> float:
    """The standard deviation of honest players' own rates around their level's
    ``expected``, from each one's (agreed, decisions): the spread of their observed rates
    less what their numbers of decisions alone explain (method of moments), at least
    :data:`MIN_SPREAD`."""
    seen = [(k / n, n) for k, n in rates if n > 0]
    if len(seen) < 2:
        return MIN_SPREAD
    q = min(max(expected, 0.01), 0.99)
    observed = sum((r - q) ** 2 for r, _ in seen) / (len(seen) - 1)
    chance = sum(q * (1 - q) / n for _, n in seen) / len(seen)
    return max(math.sqrt(max(observed - chance, 0.0)), MIN_SPREAD)


# No two people play alike: the least spread assumed between players of one level.
MIN_SPREAD = 0.02


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
    "feeding_difference",
    "feeding_z",
    "level_spread",
    "pair_score",
    "soft_play_z",
    "threshold_at",
]
