"""Elo-style ratings for matches of two, three or four players: pure Python, no Django.

A match's finishing order counts as one pairwise result against every opponent: ahead of
him is a win (1), level with him a draw (½), behind him a loss (0). Each pairwise result is
compared with the Elo expectation ``1 / (1 + 10 ** ((R_opp - R_own) / 400))`` and the
player's K factor is shared among his opponents::

    delta_i = K_i / (n - 1) * Σ_j m_ij * (S_ij - E_ij)

``m_ij`` is the score-margin multiplier (1 when the margin is off). With equal K factors the
deltas of a match add up to zero: every ``S_ij - E_ij`` is matched by ``S_ji - E_ji`` of the
opposite sign and the multiplier is symmetric.

K depends on the games the player has played *in this pool* (ratings are kept per number
of players at the table; that separation is the caller's business): a higher K while he is
provisional, then a K that shrinks towards a floor as games accumulate. docs/ratings.md
gives the benchmark figures behind the defaults.

A duplicate round is rated by board comparison instead (:func:`rate_boards`): every pair
of players who held the same cards at different tables is a pairwise result of that board.

Placements come from :func:`placements`: the winner first, the rest by final score, equal
scores share a place, and a player who resigned (or was replaced by a bot for good)
finishes last whatever his score.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

START_RATING = 1500.0
SCALE = 400.0


@dataclass(frozen=True, slots=True)
class EloConfig:
    """The knobs of the system. The defaults are the configuration chosen in
    docs/ratings.md; the benchmark builds the alternatives it compares from here.

    - ``k``: K of an established player, ``k_provisional``: K for his first
      ``provisional_games`` games in the pool.
    - ``k_floor`` and ``k_half_life``: after the provisional games K shrinks as
      ``k_floor + (k - k_floor) * h / (h + g')`` with ``g'`` the games past provisional and
      ``h`` the half-life (``k_half_life = 0`` keeps K constant at ``k``).
    - ``margin_weight`` and ``margin_scale``: the multiplier of a pairwise term is
      ``(1 + w * tanh(|Δscore| / scale)) / (1 + w / 2)``; ``w = 0`` turns it off.
    """

    start: float = START_RATING
    scale: float = SCALE
    k: float = 48.0
    k_provisional: float = 80.0
    provisional_games: int = 10
    k_floor: float = 16.0
    k_half_life: float = 20.0
    margin_weight: float = 0.0
    margin_scale: float = 300.0

    def __post_init__(self) -> None:
        for name in ("scale", "k", "k_provisional", "margin_scale"):
            value = getattr(self, name)
            if not (math.isfinite(value) and value > 0):
                raise ValueError(f"{name} must be a positive finite number, not {value!r}")
        for name in ("k_floor", "k_half_life", "margin_weight"):
            value = getattr(self, name)
            if not (math.isfinite(value) and value >= 0):
                raise ValueError(f"{name} must be a finite number ≥ 0, not {value!r}")
        if self.k_floor > self.k:
            raise ValueError("k_floor must not exceed k")
        if self.provisional_games < 0:
            raise ValueError("provisional_games must be ≥ 0")
        if not math.isfinite(self.start):
            raise ValueError("start must be finite")

    def k_factor(self, games: int) -> float:
        """K for a player who has played ``games`` games in the pool before this one."""
        if games < self.provisional_games:
            return self.k_provisional
        if self.k_half_life == 0:
            return self.k
        past = games - self.provisional_games
        return self.k_floor + (self.k - self.k_floor) * self.k_half_life / (self.k_half_life + past)

    def is_provisional(self, games: int) -> bool:
        return games < self.provisional_games


DEFAULT = EloConfig()
"""The configuration the service uses (see docs/ratings.md)."""

PLAIN = EloConfig(k=32.0, k_provisional=64.0, k_floor=32.0, k_half_life=0.0)
"""The baseline of the issue: a constant K (32), doubled while provisional."""


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's part in a match: his rating and games played in the pool *before*
    the match, his place (1 = winner; equal places tie) and, for the margin, his final
    score (``None``: unknown, e.g. he resigned; a pair with an unknown score counts as
    the widest margin)."""

    rating: float
    games: int
    place: int
    score: float | None = None


@dataclass(frozen=True, slots=True)
class Change:
    before: float
    after: float
    delta: float
    k: float
    expected: float
    """The player's expected pairwise score, summed over his opponents."""
    actual: float
    """His actual pairwise score: 1 a win, ½ a draw, summed over his opponents."""
    against: tuple[float, ...]
    """The part of ``delta`` won from (or lost to) each player of the match, in the order
    given (0 against himself); they add up to ``delta``."""


def expectation(rating: float, opponent: float, scale: float = SCALE) -> float:
    """The Elo expectation of ``rating`` against ``opponent``: P(win) + ½ P(draw)."""
    diff = (opponent - rating) / scale
    # Clamped so that 10 ** diff cannot overflow; beyond ±50 the result is 0 or 1 anyway.
    diff = max(-50.0, min(50.0, diff))
    return 1.0 / (1.0 + math.pow(10.0, diff))


def pairwise_result(place: int, opponent_place: int) -> float:
    """1 ahead of the opponent, ½ level with him, 0 behind."""
    if place < opponent_place:
        return 1.0
    if place == opponent_place:
        return 0.5
    return 0.0


def margin_multiplier(score: float | None, other: float | None, config: EloConfig) -> float:
    """The weight of one pairwise result by the final-score margin (1 when off).
    Symmetric in the two players, so equal K factors still give a zero-sum match."""
    w = config.margin_weight
    if w == 0:
        return 1.0
    spread = (
        1.0
        if score is None or other is None
        else math.tanh(abs(score - other) / config.margin_scale)
    )
    return (1.0 + w * spread) / (1.0 + w / 2.0)


def rate(standings: Sequence[Standing], config: EloConfig = DEFAULT) -> list[Change]:
    """The rating change of every player of one match, in the order given.

    Raises ``ValueError`` (and computes nothing) for fewer than two players, a place
    below 1, a negative games count or a rating or score that is not finite."""
    n = len(standings)
    if n < 2:
        raise ValueError("a rated match needs at least two players")
    for s in standings:
        if not math.isfinite(s.rating):
            raise ValueError(f"rating must be finite, not {s.rating!r}")
        if s.games < 0:
            raise ValueError("games must be ≥ 0")
        if s.place < 1:
            raise ValueError("places start at 1")
        if s.score is not None and not math.isfinite(s.score):
            raise ValueError(f"score must be finite, not {s.score!r}")
    changes = []
    for i, me in enumerate(standings):
        k = config.k_factor(me.games)
        share = k / (n - 1)
        expected = 0.0
        actual = 0.0
        against = [0.0] * n
        for j, other in enumerate(standings):
            if i == j:
                continue
            e = expectation(me.rating, other.rating, config.scale)
            a = pairwise_result(me.place, other.place)
            against[j] = share * margin_multiplier(me.score, other.score, config) * (a - e)
            expected += e
            actual += a
        delta = math.fsum(against)
        changes.append(
            Change(me.rating, me.rating + delta, delta, k, expected, actual, tuple(against))
        )
    return changes


BOARD_SCALE = 2400.0
"""The Elo scale of a board comparison's expectation: one board says much less than a
whole match, so a rating gap expects a smaller share of it (400 points: 0.60 of a board,
where it expects 0.91 of a match of two). Chosen with ``bench/ratings_duplicate.py`` so that
duplicate ratings spread as the pool's other tables do (docs/ratings.md, "Duplicate
events")."""
BOARD_WEIGHT = 2.0
"""A duplicate round moves a rating at most ``weight · K`` (a match at most K). With the
scale it sets how fast ratings follow the comparisons: only ``weight / scale`` matters for
the order (docs/ratings.md)."""


def rate_boards(
    players: Sequence[tuple[float, int]],
    groups: Sequence[Sequence[tuple[int, float]]],
    config: EloConfig = DEFAULT,
    *,
    scale: float = BOARD_SCALE,
    weight: float = BOARD_WEIGHT,
) -> list[Change | None]:
    """The rating change of every player of one duplicate round, rated by board
    comparison (docs/ratings.md, "Duplicate events").

    ``players``: (rating, games in the pool) of everyone in the round, by index.
    ``groups``: one per board group — the results of those who held the same dealing at
    the same position — as (player index, the points that deal gave him). Within a group
    every pair is a pairwise result (more points 1, equal ½, fewer 0) compared with the
    Elo expectation on ``scale``; a player's terms are averaged over all his pairs of the
    round and his K is applied once::

        delta_i = weight · K_i · (1 / c_i) · Σ_{groups} Σ_{j ≠ i} (S_ij − E_ij)

    with ``c_i`` his number of pairs: his matchpoint fraction of the round minus its
    expectation. So a round moves a rating at most ``weight · K``, as a match moves it at
    most K, and with equal K and equal ``c`` the deltas add up to zero. A player with no
    pair (every board of his alone) gets ``None``. A change's ``expected`` and ``actual``
    are his fractions of the round (per pair), not sums. Raises ``ValueError`` for an unknown
    player index, a player twice in a group, or a rating or points that are not finite."""
    if not (math.isfinite(scale) and scale > 0):
        raise ValueError("scale must be a positive finite number")
    if not (math.isfinite(weight) and weight > 0):
        raise ValueError("weight must be a positive finite number")
    n = len(players)
    for rating, games in players:
        if not math.isfinite(rating):
            raise ValueError(f"rating must be finite, not {rating!r}")
        if games < 0:
            raise ValueError("games must be ≥ 0")
    against = [[0.0] * n for _ in range(n)]
    expected = [0.0] * n
    actual = [0.0] * n
    pairs = [0] * n
    for group in groups:
        members = [i for i, _ in group]
        if len(set(members)) != len(members):
            raise ValueError("a player appears twice in one board group")
        for i, points in group:
            if not 0 <= i < n:
                raise ValueError(f"no player {i} in the round")
            if not math.isfinite(points):
                raise ValueError(f"points must be finite, not {points!r}")
        for i, mine in group:
            for j, theirs in group:
                if i == j:
                    continue
                e = expectation(players[i][0], players[j][0], scale)
                a = 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
                against[i][j] += a - e
                expected[i] += e
                actual[i] += a
                pairs[i] += 1
    out: list[Change | None] = []
    for i, (rating, games) in enumerate(players):
        if not pairs[i]:
            out.append(None)
            continue
        k = config.k_factor(games)
        share = weight * k / pairs[i]
        parts = tuple(share * x for x in against[i])
        delta = math.fsum(parts)
        fractions = (expected[i] / pairs[i], actual[i] / pairs[i])
        out.append(Change(rating, rating + delta, delta, k, *fractions, parts))
    return out


def placements(
    scores: Sequence[float], *, winner: int | None, resigned: Sequence[int] = ()
) -> list[int]:
    """Places by seat from a finished match: the winner 1st, the others by final score
    (higher is better, equal scores share a place), every resigned seat last (sharing the
    last place if several resigned). When the bot that took over a resigned seat wins the
    match, the seat is still last and the best of the others by score is first."""
    n = len(scores)
    gone = set(resigned)
    if any(not 0 <= s < n for s in gone):
        raise ValueError("resigned seats must be seats of the match")
    if winner is not None and not 0 <= winner < n:
        raise ValueError("winner must be a seat of the match")
    if any(not math.isfinite(x) for x in scores):
        raise ValueError("scores must be finite")

    def key(seat: int) -> tuple[bool, bool, float]:
        if seat in gone:
            return (True, True, 0.0)
        return (False, seat != winner, -scores[seat])

    order = sorted(range(n), key=key)
    places = [0] * n
    for rank, seat in enumerate(order, start=1):
        prev = order[rank - 2] if rank > 1 else None
        places[seat] = places[prev] if prev is not None and key(prev) == key(seat) else rank
    return places


def win_probabilities(ratings: Sequence[float], scale: float = SCALE) -> list[float]:
    """The chance of each player to finish first, by Luce's choice rule on the Elo scale
    (for two players exactly the Elo expectation)."""
    top = max(ratings)
    weights = [math.pow(10.0, (r - top) / scale) for r in ratings]
    total = sum(weights)
    return [w / total for w in weights]


__all__ = [
    "BOARD_SCALE",
    "BOARD_WEIGHT",
    "DEFAULT",
    "PLAIN",
    "SCALE",
    "START_RATING",
    "Change",
    "EloConfig",
    "Standing",
    "expectation",
    "margin_multiplier",
    "pairwise_result",
    "placements",
    "rate",
    "rate_boards",
    "win_probabilities",
]
