"""What a deal's result is worth to one seat: its effect on the match.

Raw points are not the goal of Thousand; the match is. A completed (simulated) deal is
scored on a copy of the match as the view shows it (``position.match_at_standing``) with
the engine's own steps of docs/spec.md §3 — the barrel and its attempts, bolts and their
penalty, arrivals at 880, samosval, the target without the barrel — and the seat's
*standing* before and after is compared:

- a won match stands at :data:`WIN` and a match won by another seat at ``-WIN`` (far
  beyond any standing without a winner, which stays near the scores);
- otherwise each seat stands at its score, less :data:`BOLT_COST` a bolt (three cost 120),
  plus :data:`BARREL_SEAT` for sitting on the barrel and :data:`ATTEMPT` per attempt left
  there, less :data:`RED_COST` below the red threshold (it may then only pass);
- without the barrel a seat within :data:`NEAR` of the target stands higher by what it
  still lacks being small: a rival close to winning weighs more;
- my standing counts against the others' mean; a rival near the end weighs more through
  his own standing (the barrel, the target), not through a rule of mine.

The value of a deal is the change in that standing. Values are cached per distinct
result (deltas, bolts, declarer, outcome), which repeat a lot across samples.
"""

from __future__ import annotations

import math

from games.engine.deal import Deal
from games.engine.match import Match
from games.engine.options import Options, below_red_threshold
from games.engine.position import match_at_standing
from games.engine.views import View

WIN = 1500.0
# A match of N deals (docs/spec.md §3.7) is decided by its placements, which go by the
# final scores: each rival I finish ahead of is worth PLACE points, each ahead of me
# -PLACE (a tie 0), on top of the score difference. Before the end a place is worth what
# it is likely to become: the difference d to a rival with R counted deals left
# (this one included) ends ahead with chance Phi(d / (SPREAD * sqrt(R))).
PLACE = 120.0
SPREAD = 100.0
BOLT_COST = 40.0
BARREL_SEAT = 60.0
ATTEMPT = 30.0
RED_COST = 60.0
NEAR = 200


def seat_standing(match: Match, seat: int) -> float:
    """How well ``seat`` stands in ``match`` (no winner yet)."""
    options = match.options
    score = match.scores[seat]
    value = score - BOLT_COST * match.bolts[seat]
    if match.sitter == seat:
        value += BARREL_SEAT + ATTEMPT * (3 - match.attempts)
    if below_red_threshold(options, score) and not options.boards_from_zero:
        value -= RED_COST
    # Under boards_from_zero (docs/spec.md §3.8) the target never ends the match.
    if not options.barrel and not options.boards_from_zero and score > options.target - NEAR:
        value += score - (options.target - NEAR)
    return value


def _ahead(diff: float) -> float:
    return (diff > 0) - (diff < 0)


def standing_by_deals(match: Match, seat: int) -> float:
    """``seat``'s standing in a match of N deals (§3.7), in points: against each rival the
    score difference plus :data:`PLACE` for finishing ahead of him (minus it for behind),
    averaged over the rivals. Finished (by deals, or won at the target), the places are
    the match's; before, each is its chance by the difference of standings and the
    counted deals left. No :data:`WIN`: first, second and third place differ by a place
    each, not by the whole match."""
    deals = match.options.deals
    assert deals is not None
    rivals = [s for s in range(match.players) if s != seat]
    total = 0.0
    if match.over:
        places = match.placements
        assert places is not None
        for s in rivals:
            total += match.scores[seat] - match.scores[s] + PLACE * _ahead(places[s] - places[seat])
        return total / len(rivals)
    left = max(1, deals - match.deals_played)
    spread = SPREAD * math.sqrt(left)
    mine = seat_standing(match, seat)
    for s in rivals:
        diff = mine - seat_standing(match, s)
        total += diff + PLACE * math.erf(diff / (spread * math.sqrt(2)))
    return total / len(rivals)


def loss_cap(options: Options, stake: int) -> float | None:
    """The most one decision can cost in a match of N deals (``None`` in a match to the
    target): one deal at ``stake`` (the contract, or the price bid) moves the seat's score
    against a rival by at most twice the stake (made instead of failed) and the 120 card
    points a defender may take, plus a place to every rival (from first to last):
    ``2 * stake + 120 + 2 * PLACE``."""
    if options.deals is None:
        return None
    return 2.0 * stake + 120.0 + 2.0 * PLACE


def standing(match: Match, seat: int) -> float:
    """``seat``'s standing against the others."""
    if match.options.deals is not None:
        return standing_by_deals(match, seat)
    if match.winner is not None:
        return WIN if match.winner == seat else -WIN
    if match.over:  # §3.7: finished by deals with the highest score shared
        return 0.0 if match.scores[seat] == max(match.scores) else -WIN
    mine = seat_standing(match, seat)
    others = [seat_standing(match, s) for s in range(match.players) if s != seat]
    return mine - sum(others) / len(others)


class MatchValue:
    """Values completed deals for the view's seat by what they do to its match."""

    __slots__ = ("_base", "_before", "_cache", "seat")

    def __init__(self, view: View) -> None:
        if view.seat is None:
            raise ValueError("a spectator has no stake")
        self.seat = view.seat
        self._base = match_at_standing(view)
        self._before = standing(self._base, self.seat)
        self._cache: dict[tuple[object, ...], float] = {}

    def of(self, deal: Deal) -> float:
        """The change in my standing that the completed ``deal`` makes."""
        key = (tuple(deal.deltas), tuple(deal.bolts), deal.declarer, deal.outcome, deal.contract)
        value = self._cache.get(key)
        if value is None:
            after = self._base.copy()
            after.score_deal(deal)
            value = self._cache[key] = standing(after, self.seat) - self._before
        return value


__all__ = [
    "PLACE",
    "SPREAD",
    "WIN",
    "MatchValue",
    "loss_cap",
    "seat_standing",
    "standing",
    "standing_by_deals",
]
