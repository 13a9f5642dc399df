"""Bots at a table where every deal starts from 0:0:0 (docs/spec.md §3.8): the sums a
view shows are the match's, not the deal's start, so no bot reads the red threshold or
the target into them."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.bots import LEVELS
from games.bots.objective import seat_standing
from games.bots.reading import limit
from games.engine import Options
from games.engine.position import match_at_standing

from .helpers import bots_for, play_out, table

PURE = Options(red_threshold=0, deals=6, boards_from_zero=True)


@settings(max_examples=25)
@given(
    seed=st.integers(0, 2**32),
    levels=st.lists(st.sampled_from(LEVELS), min_size=3, max_size=3),
    players=st.sampled_from((2, 3, 4)),
    golden=st.booleans(),
    dark=st.booleans(),
)
def test_bots_play_only_legal_actions_from_any_sums(seed, levels, players, golden, dark):
    options = PURE.replace(players=players, golden=golden, dark=dark)
    sums = [-400, 950, 300, -20][:players]
    match = table(options, seed, sums)
    play_out(match, bots_for((levels * 2)[:players], seed), max_deals=2)


def test_a_negative_sum_does_not_stop_the_bidding_reading():
    """reading.limit: a seat below the threshold bids nothing when the state is carried,
    and as from 0 under the option."""
    bidding = 0
    for seed in range(40):
        carried = table(PURE.replace(boards_from_zero=False, deals=None), seed, [-400] * 3)
        pure = table(PURE, seed, [-400] * 3)
        zero = table(PURE, seed, [0] * 3)
        seat = pure.to_act
        if seat is None or pure.phase is None or pure.phase.name != "BIDDING":
            continue
        hand = pure.deal.hands[seat]
        assert limit(carried.view(seat), seat, hand) == 0
        assert limit(pure.view(seat), seat, hand) == limit(zero.view(seat), seat, hand)
        bidding += limit(pure.view(seat), seat, hand) > 0
    assert bidding > 0


def test_the_standing_counts_no_red_threshold_and_no_target_from_zero():
    low = table(PURE.replace(barrel=False, target=500), 1, [-400, 450, 0])
    standing = match_at_standing(low.view(0))
    assert seat_standing(standing, 0) == -400  # no cost for the red
    assert seat_standing(standing, 1) == 450  # no weight for the target near
