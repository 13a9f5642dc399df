"""The rating math (ratings/elo.py): pure functions, no database."""

import math
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratings import elo
from ratings.elo import EloConfig, Standing, placements, rate

ESTABLISHED = 100  # games: well past provisional


def deltas(standings: list[Standing], config: EloConfig = elo.DEFAULT) -> list[float]:
    return [c.delta for c in rate(standings, config)]


# ---------------------------------------------------------------- symmetric cases


def test_equal_players_two_at_a_table_move_by_half_k() -> None:
    k = elo.PLAIN.k
    assert deltas([Standing(1500, ESTABLISHED, 1), Standing(1500, ESTABLISHED, 2)], elo.PLAIN) == [
        k / 2,
        -k / 2,
    ]


def test_equal_players_three_at_a_table_middle_place_moves_nothing() -> None:
    got = deltas([Standing(1500, ESTABLISHED, p) for p in (1, 2, 3)], elo.PLAIN)
    assert got == pytest.approx([elo.PLAIN.k / 2, 0.0, -elo.PLAIN.k / 2])


def test_swapping_two_equal_players_swaps_their_deltas() -> None:
    a = deltas([Standing(1600, 30, 1), Standing(1500, 30, 2), Standing(1500, 30, 3)])
    b = deltas([Standing(1600, 30, 1), Standing(1500, 30, 3), Standing(1500, 30, 2)])
    assert a[1:] == pytest.approx(b[:0:-1])


def test_beating_a_stronger_player_gains_more_than_beating_a_weaker_one() -> None:
    up = deltas([Standing(1500, ESTABLISHED, 1), Standing(1700, ESTABLISHED, 2)])[0]
    down = deltas([Standing(1500, ESTABLISHED, 1), Standing(1300, ESTABLISHED, 2)])[0]
    assert up > down > 0


def test_expectation_is_the_elo_curve() -> None:
    assert elo.expectation(1900, 1500) == pytest.approx(10 / 11)


# ---------------------------------------------------------------- ties


def test_a_tie_between_equals_changes_nothing() -> None:
    assert deltas([Standing(1500, ESTABLISHED, 2), Standing(1500, ESTABLISHED, 2)]) == [0.0, 0.0]


def test_a_tie_moves_the_weaker_player_up() -> None:
    weak, strong = deltas([Standing(1400, ESTABLISHED, 1), Standing(1600, ESTABLISHED, 1)])
    assert weak > 0 > strong


def test_equal_scores_share_a_place() -> None:
    assert placements([1000, 300, 300], winner=0) == [1, 2, 2]


def test_resigned_seat_is_last_whatever_its_score() -> None:
    assert placements([1000, 700, 100], winner=0, resigned=[1]) == [1, 3, 2]


def test_resigned_seat_that_a_bot_carried_to_victory_is_still_last() -> None:
    assert placements([1040, 700, 100], winner=0, resigned=[0]) == [3, 1, 2]


def test_two_resigned_seats_share_the_last_place() -> None:
    assert placements([1000, 700, 100, 50], winner=0, resigned=[1, 3]) == [1, 3, 2, 3]


def test_winner_is_first_even_without_the_top_score() -> None:
    # The barrel: a sitter who makes his contract wins, whatever the others have.
    assert placements([880, 1000, 900], winner=1) == [3, 1, 2]


# ---------------------------------------------------------------- K factor


def test_provisional_player_moves_by_the_provisional_k() -> None:
    config = elo.DEFAULT
    new, old = rate([Standing(1500, 0, 1), Standing(1500, ESTABLISHED, 2)], config)
    assert (new.k, old.k) == (config.k_provisional, config.k_factor(ESTABLISHED))


def test_provisional_ends_after_the_provisional_games() -> None:
    config = elo.DEFAULT
    assert config.k_factor(config.provisional_games - 1) == config.k_provisional
    assert config.k_factor(config.provisional_games) == config.k


def test_k_shrinks_with_games_towards_the_floor() -> None:
    config = elo.DEFAULT
    ks = [config.k_factor(g) for g in range(config.provisional_games, 2000, 50)]
    assert ks == sorted(ks, reverse=True) and ks[-1] == pytest.approx(config.k_floor, abs=1)


def test_plain_k_is_constant_after_provisional() -> None:
    assert {elo.PLAIN.k_factor(g) for g in range(10, 500)} == {elo.PLAIN.k}


def test_bad_configuration_is_refused() -> None:
    with pytest.raises(ValueError, match="k_floor"):
        EloConfig(k=16, k_floor=32)


def test_bad_standing_is_refused() -> None:
    with pytest.raises(ValueError, match="at least two"):
        rate([Standing(1500, 0, 1)])


# ---------------------------------------------------------------- zero-sum


def test_match_of_established_players_is_zero_sum() -> None:
    got = deltas(
        [Standing(1620, 40, 2), Standing(1480, 40, 1), Standing(1390, 40, 3), Standing(1555, 40, 3)]
    )
    assert math.fsum(got) == pytest.approx(0.0, abs=1e-9)


def test_match_with_a_provisional_player_is_not_zero_sum() -> None:
    got = deltas([Standing(1500, 0, 1), Standing(1500, ESTABLISHED, 2)])
    assert math.fsum(got) > 0


def test_margin_keeps_a_match_zero_sum() -> None:
    config = replace(elo.DEFAULT, margin_weight=1.0)
    got = deltas(
        [Standing(1500, 40, 1, 1020), Standing(1550, 40, 2, 700), Standing(1450, 40, 3, None)],
        config,
    )
    assert math.fsum(got) == pytest.approx(0.0, abs=1e-9)


def test_margin_rewards_a_wide_win_more() -> None:
    config = replace(elo.DEFAULT, margin_weight=1.0)
    wide = deltas([Standing(1500, 40, 1, 1000), Standing(1500, 40, 2, 100)], config)[0]
    narrow = deltas([Standing(1500, 40, 1, 1000), Standing(1500, 40, 2, 860)], config)[0]
    assert wide > narrow > 0


# ---------------------------------------------------------------- properties

ratings = st.floats(min_value=-5000, max_value=10000, allow_nan=False)
games = st.integers(min_value=0, max_value=5000)
scores = st.one_of(st.none(), st.integers(min_value=-2000, max_value=1200).map(float))
configs = st.builds(
    EloConfig,
    k=st.floats(min_value=16, max_value=64),
    k_provisional=st.floats(min_value=1, max_value=200),
    provisional_games=st.integers(min_value=0, max_value=30),
    k_floor=st.floats(min_value=0, max_value=16),
    k_half_life=st.floats(min_value=0, max_value=100),
    margin_weight=st.floats(min_value=0, max_value=3),
)


@st.composite
def matches(draw: st.DrawFn) -> list[Standing]:
    n = draw(st.integers(min_value=2, max_value=4))
    places = draw(st.lists(st.integers(min_value=1, max_value=n), min_size=n, max_size=n))
    return [Standing(draw(ratings), draw(games), place, draw(scores)) for place in places]


@given(matches(), configs)
def test_ratings_stay_finite(standings: list[Standing], config: EloConfig) -> None:
    assert all(math.isfinite(c.after) for c in rate(standings, config))


@given(matches(), configs)
def test_a_lone_winner_never_loses_rating(standings: list[Standing], config: EloConfig) -> None:
    standings = [replace(s, place=s.place + 1) for s in standings]
    standings[0] = replace(standings[0], place=1)
    assert rate(standings, config)[0].delta >= 0


@given(matches(), configs)
def test_winner_never_loses_rating_to_a_player_he_beat(
    standings: list[Standing], config: EloConfig
) -> None:
    """Whatever else happens at the table, the part of a player's change that comes from
    an opponent he finished ahead of is never negative."""
    changes = rate(standings, config)
    assert all(
        changes[i].against[j] >= 0
        for i, me in enumerate(standings)
        for j, other in enumerate(standings)
        if me.place < other.place
    )


@given(matches(), configs, st.randoms(use_true_random=False))
def test_order_of_opponents_does_not_matter(
    standings: list[Standing], config: EloConfig, rnd: object
) -> None:
    import random

    assert isinstance(rnd, random.Random)
    shuffled = list(range(len(standings)))
    rnd.shuffle(shuffled)
    plain = rate(standings, config)
    mixed = rate([standings[i] for i in shuffled], config)
    assert [mixed[shuffled.index(i)].delta for i in range(len(standings))] == pytest.approx(
        [c.delta for c in plain]
    )


@given(matches(), configs)
def test_parts_against_each_opponent_add_up_to_the_change(
    standings: list[Standing], config: EloConfig
) -> None:
    assert all(math.fsum(c.against) == c.delta for c in rate(standings, config))


@given(matches(), configs)
def test_equal_k_factors_make_a_zero_sum_match(
    standings: list[Standing], config: EloConfig
) -> None:
    standings = [replace(s, games=ESTABLISHED + 50) for s in standings]
    assert math.fsum(c.delta for c in rate(standings, config)) == pytest.approx(0.0, abs=1e-6)


@given(st.lists(ratings, min_size=2, max_size=4))
def test_win_probabilities_add_up_to_one(rs: list[float]) -> None:
    assert math.fsum(elo.win_probabilities(rs)) == pytest.approx(1.0)


# ---------------------------------------------------------------- board comparison


def test_a_board_comparison_is_the_matchpoint_fraction_minus_its_expectation() -> None:
    # 1600 (established, K 48) against two 1500s in two groups; he beats one, ties one.
    players = [(1600.0, ESTABLISHED), (1500.0, ESTABLISHED), (1500.0, ESTABLISHED)]
    changes = elo.rate_boards(players, [[(0, 120), (1, -120)], [(0, 40), (2, 40)]])
    e = elo.expectation(1600, 1500, elo.BOARD_SCALE)
    k = elo.BOARD_WEIGHT * elo.DEFAULT.k_factor(ESTABLISHED)
    assert changes[0] is not None and changes[0].delta == pytest.approx(k * (0.75 - e))
    assert changes[0].actual == pytest.approx(0.75) and changes[0].expected == pytest.approx(e)
    assert changes[1] is not None and changes[1].delta == pytest.approx(k * (0.0 - (1 - e)))


def test_a_player_compared_with_nobody_gets_no_change() -> None:
    changes = elo.rate_boards([(1500.0, 0), (1500.0, 0), (1500.0, 0)], [[(0, 5), (1, 0)], [(2, 9)]])
    assert changes[2] is None and changes[0] is not None


def test_a_round_moves_a_rating_at_most_k_times_its_weight() -> None:
    players = [(1500.0, 0), (1500.0, 0)]
    groups = [[(0, 100), (1, 0)]] * 6
    changes = elo.rate_boards(players, groups, weight=2.0)
    assert [c.delta for c in changes if c] == pytest.approx([80.0, -80.0])


def test_a_player_twice_in_one_board_group_is_refused() -> None:
    with pytest.raises(ValueError, match="twice"):
        elo.rate_boards([(1500.0, 0), (1500.0, 0)], [[(0, 5), (0, 5)]])


@given(
    st.lists(ratings, min_size=2, max_size=6),
    st.lists(st.lists(st.integers(-250, 250), min_size=2, max_size=6), min_size=1, max_size=8),
)
def test_equal_k_and_equal_pairs_make_a_zero_sum_round(
    rs: list[float], boards: list[list[int]]
) -> None:
    # Every group holds everyone: each player then has as many pairs as the others.
    players = [(r, ESTABLISHED) for r in rs]
    groups = [[(i, float(b[i % len(b)])) for i in range(len(rs))] for b in boards]
    changes = elo.rate_boards(players, groups)
    assert math.fsum(c.delta for c in changes if c) == pytest.approx(0.0, abs=1e-6)


def test_the_math_loads_no_web_framework() -> None:
    import subprocess
    import sys
    from pathlib import Path

    code = (
        "import ratings.elo, ratings.lines, ratings.chart, sys; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('django', 'channels', 'celery', 'rest_framework')))"
    )
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "[]"
