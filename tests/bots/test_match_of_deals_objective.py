"""The bots' objective in a match of N deals (docs/spec.md §3.7): places and scores, in
points, not a won or lost match worth 1500."""

from __future__ import annotations

from games.bots.objective import PLACE, standing
from games.engine import Match, Options


def _finished(scores: list[int]) -> Match:
    match = Match.empty(Options(players=3, deals=3), first_dealer=0)
    match.scores = scores
    match.deals_played = 3
    match._end_by_deals([])
    return match


def test_second_place_stands_above_third_by_a_place_and_the_score() -> None:
    match = _finished([300, 200, 100])
    # Against the others' mean: 200 - 200 = 0 and 100 - 250 = -150; places 0 and -1.
    assert standing(match, 1) - standing(match, 2) == 150 + PLACE


def test_the_end_of_a_match_of_deals_is_valued_in_points_not_as_a_whole_match() -> None:
    match = _finished([300, 200, 100])
    assert abs(standing(match, 2)) <= 200 + PLACE
