"""The round-robin movement of duplicate events (tournaments/pairing/movement/): a plan
of every round from the entrants, each pair at most once while the rounds allow, every
position in turn; re-planned from the rounds played when the field changes."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import (
    TableSeats,
    affine_classes,
    check_round,
    circle_classes,
    design_classes,
    movement_ahead,
    movement_plan,
    movement_round,
    table_plan,
)
from tournaments.pairing.movement import _plan, kirkman_21_classes, kirkman_classes

seat_sizes = st.sampled_from((2, 3, 4))
SMALL_BUDGET = 20_000
"""Enough for the fields the properties draw, and quick."""

EXACT = [
    (9, 3),
    (15, 3),
    (21, 3),
    (27, 3),
    (16, 4),
    (4, 4),
    (3, 3),
    *((n, 2) for n in range(2, 15)),
]


def meetings(rounds: Sequence[Sequence[TableSeats]]) -> Counter[frozenset[int]]:
    met: Counter[frozenset[int]] = Counter()
    for rnd in rounds:
        for table in rnd:
            humans = [p for p in table if p is not None]
            met.update(frozenset(pair) for pair in itertools.combinations(humans, 2))
    return met


def positions(rounds: Sequence[Sequence[TableSeats]], seats: int) -> dict[int, list[int]]:
    held: dict[int, list[int]] = {}
    for rnd in rounds:
        for table in rnd:
            for position, p in enumerate(table):
                if p is not None:
                    held.setdefault(p, [0] * seats)[position] += 1
    return held


def fewest_possible_max_meetings(players: int, seats: int, rounds: int) -> int:
    """A lower bound of the most meetings of one pair: the meetings of the plan shared out
    as evenly as possible over the pairs."""
    pairs = players * (players - 1) // 2
    meetings_per_round = sum(h * (h - 1) // 2 for h in table_plan(players, seats))
    return math.ceil(rounds * meetings_per_round / pairs) if pairs else 0


def every_pair_once(classes: list[list[list[int]]], n: int) -> bool:
    met = Counter(
        frozenset(pair)
        for groups in classes
        for g in groups
        for pair in itertools.combinations(g, 2)
    )
    return len(met) == n * (n - 1) // 2 and set(met.values()) == {1}


# ----------------------------------------------------------------------------- designs


@pytest.mark.parametrize(("q", "m"), [(2, 3), (3, 1), (3, 2), (3, 3), (4, 1), (4, 2), (4, 3)])
def test_the_affine_space_gives_every_pair_one_line_in_parallel_classes(q: int, m: int) -> None:
    classes = affine_classes(q, m)
    n = q**m
    assert len(classes) == (n - 1) // (q - 1)
    assert all(sorted(x for g in groups for x in g) == list(range(n)) for groups in classes)
    assert every_pair_once(classes, n)


def test_kirkmans_schoolgirls_walk_with_every_other_girl_once_in_seven_days() -> None:
    classes = kirkman_classes()
    assert len(classes) == 7
    assert all(sorted(x for g in day for x in g) == list(range(15)) for day in classes)
    assert every_pair_once(classes, 15)


def test_twenty_one_walk_with_every_other_once_in_ten_days() -> None:
    classes = kirkman_21_classes()
    assert len(classes) == 10
    assert all(sorted(x for g in day for x in g) == list(range(21)) for day in classes)
    assert every_pair_once(classes, 21)


@given(n=st.integers(2, 40))
def test_the_circle_method_pairs_everyone_once_with_one_player_alone_when_odd(n: int) -> None:
    classes = circle_classes(n)
    assert len(classes) == n - 1 + n % 2
    assert every_pair_once(classes, n)
    for groups in classes:
        assert [len(g) for g in groups] == table_plan(n, 2)
    alone = Counter(g[0] for groups in classes for g in groups if len(g) == 1)
    assert set(alone.values()) <= {1}


@settings(max_examples=60)
@given(case=st.sampled_from(EXACT), data=st.data(), seed=st.integers(0, 10**6))
def test_an_exact_design_meets_no_pair_twice_within_its_rounds(
    case: tuple[int, int], data: st.DataObject, seed: int
) -> None:
    n, seats = case
    classes = design_classes(n, seats)
    assert classes is not None
    rounds = data.draw(st.integers(1, len(classes)))
    plan = movement_plan(range(1, n + 1), rounds, seats=seats, seed=seed)
    assert len(plan) == rounds
    assert max(meetings(plan).values(), default=1) == 1


@settings(max_examples=30)
@given(case=st.sampled_from(EXACT), cycles=st.integers(2, 3), seed=st.integers(0, 10**6))
def test_more_rounds_than_a_design_go_round_it_again_every_pair_as_often(
    case: tuple[int, int], cycles: int, seed: int
) -> None:
    n, seats = case
    classes = design_classes(n, seats)
    assert classes is not None
    plan = movement_plan(range(n), cycles * len(classes), seats=seats, seed=seed)
    assert set(meetings(plan).values()) == {cycles}


# ----------------------------------------------------------------------------- any field


@settings(max_examples=80, deadline=None)
@given(
    players=st.integers(1, 30),
    seats=seat_sizes,
    rounds=st.integers(1, 8),
    seed=st.integers(0, 10**6),
)
def test_every_round_seats_every_entrant_exactly_once_with_the_plans_bots(
    players: int, seats: int, rounds: int, seed: int
) -> None:
    ids = list(range(100, 100 + players))
    plan = movement_plan(ids, rounds, seats=seats, seed=seed, work_budget=SMALL_BUDGET)
    assert len(plan) == rounds
    for tables in plan:
        check_round(tables, ids, seats)
        humans = sorted((sum(p is not None for p in t) for t in tables), reverse=True)
        assert humans == table_plan(players, seats)


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(2, 24),
    seats=seat_sizes,
    rounds=st.integers(1, 8),
    seed=st.integers(0, 10**6),
)
def test_no_pair_meets_more_than_once_over_the_fewest_possible(
    players: int, seats: int, rounds: int, seed: int
) -> None:
    plan = movement_plan(range(players), rounds, seats=seats, seed=seed, work_budget=SMALL_BUDGET)
    most = max(meetings(plan).values(), default=0)
    assert most <= fewest_possible_max_meetings(players, seats, rounds) + 1


@pytest.mark.parametrize(
    ("players", "seats", "rounds"),
    [
        (10, 3, 4),
        (12, 3, 4),
        (14, 3, 5),
        (18, 3, 6),
        (24, 3, 7),
        (60, 3, 10),
        (20, 4, 5),
        (28, 4, 6),
        (11, 3, 4),
        (30, 2, 12),
    ],
)
def test_a_searched_field_meets_no_pair_twice_when_the_rounds_allow(
    players: int, seats: int, rounds: int
) -> None:
    plan = movement_plan(range(players), rounds, seats=seats, seed=1)
    assert max(meetings(plan).values()) == 1


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(1, 30),
    seats=seat_sizes,
    rounds=st.integers(1, 9),
    seed=st.integers(0, 10**6),
)
def test_everyone_holds_each_position_as_evenly_as_the_rounds_allow(
    players: int, seats: int, rounds: int, seed: int
) -> None:
    plan = movement_plan(range(players), rounds, seats=seats, seed=seed, work_budget=SMALL_BUDGET)
    for counts in positions(plan, seats).values():
        assert max(counts) - min(counts) <= 1


@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 30), seats=seat_sizes, seed=st.integers(0, 10**6))
def test_the_plan_is_the_same_for_the_same_entrants_and_seed(
    players: int, seats: int, seed: int
) -> None:
    ids = list(range(players))
    first = movement_plan(ids, 5, seats=seats, seed=seed, work_budget=SMALL_BUDGET)
    _plan.cache_clear()
    again = movement_plan(ids[::-1], 5, seats=seats, seed=seed, work_budget=SMALL_BUDGET)
    assert first == again


def test_another_seed_draws_another_plan() -> None:
    ids = range(9)
    assert movement_plan(ids, 4, seed=1) != movement_plan(ids, 4, seed=2)


def test_a_player_listed_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="twice"):
        movement_plan([1, 2, 2], 3)


# ----------------------------------------------------------------------------- round by round


def play(players: list[int], rounds: int, seats: int, seed: int, changes: dict[int, list[int]]):
    """Seat rounds 1..rounds one at a time; ``changes[r]`` is the field from round r on."""
    played: list[list[TableSeats]] = []
    for number in range(1, rounds + 1):
        players = changes.get(number, players)
        played.append(movement_round(players, played, rounds=rounds, seats=seats, seed=seed))
    return played


@given(case=st.sampled_from([(9, 3, 4), (15, 3, 7), (16, 4, 5), (10, 3, 4), (8, 2, 7)]))
def test_round_by_round_the_event_follows_the_plan_made_at_round_one(
    case: tuple[int, int, int],
) -> None:
    players, seats, rounds = case
    ids = list(range(1, players + 1))
    assert play(ids, rounds, seats, 3, {}) == movement_plan(ids, rounds, seats=seats, seed=3)


def test_a_withdrawal_replans_the_rounds_left_from_the_meetings_already_played() -> None:
    ids = list(range(1, 16))
    plan = movement_plan(ids, 7, seats=3, seed=4)
    played = play(ids, 7, 3, 4, {4: ids[1:]})
    assert played[:3] == plan[:3]  # the rounds played stand
    for tables in played[3:]:
        check_round(tables, ids[1:], 3)  # fourteen: two tables with a bot
    assert max(meetings(played).values()) == 1
    # From round 4 on, the re-plan made then holds.
    assert played[3:] == movement_plan(
        ids[1:], 4, seats=3, seed=4, start=4, history=plan[:3], hint=plan[3:]
    )


def test_a_walk_in_is_seated_from_the_next_round_without_repeating_a_meeting() -> None:
    ids = list(range(1, 12))
    played = play(ids, 4, 3, 5, {2: [*ids, 99]})
    check_round(played[0], ids, 3)
    for tables in played[1:]:
        check_round(tables, [*ids, 99], 3)
    assert max(meetings(played).values()) == 1


def test_a_round_seated_otherwise_is_kept_and_the_rest_replanned_around_it() -> None:
    ids = list(range(1, 10))
    plan = movement_plan(ids, 4, seats=3, seed=6)
    other = movement_plan(ids, 4, seats=3, seed=7)  # as after an organiser's reseat
    played = [other[0]]
    for _ in range(3):
        played.append(movement_round(ids, played, rounds=4, seats=3, seed=6))
    assert played[1:] != plan[1:]
    assert max(meetings(played).values()) == 1


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(2, 20),
    seats=seat_sizes,
    left=st.integers(0, 4),
    joined=st.integers(0, 4),
    seed=st.integers(0, 10**6),
)
def test_any_change_of_the_field_after_round_two_still_seats_everyone_once(
    players: int, seats: int, left: int, joined: int, seed: int
) -> None:
    ids = list(range(1, players + 1))
    later = ids[min(left, players - 2) :] + [100 + j for j in range(joined)]
    played = play(ids, 5, seats, seed, {3: later})
    for number, tables in enumerate(played, start=1):
        check_round(tables, ids if number < 3 else later, seats)


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(2, 16),
    seats=seat_sizes,
    rounds=st.integers(2, 6),
    seated=st.integers(0, 5),
    left=st.integers(0, 3),
    seed=st.integers(0, 10**6),
)
def test_the_rounds_ahead_are_the_rounds_the_event_will_seat_if_nobody_leaves_or_joins(
    players: int, seats: int, rounds: int, seated: int, left: int, seed: int
) -> None:
    """What the event's page shows as the plan is what seating gives, round by round, even
    after a change of the field re-planned it."""
    ids = list(range(1, players + 1))
    seated = min(seated, rounds - 1)
    field = ids[min(left, players - 2) :]
    played: list[list[TableSeats]] = []
    for _ in range(seated):
        played.append(movement_round(ids, played, rounds=rounds, seats=seats, seed=seed))

    ahead = movement_ahead(field, played, rounds=rounds, seats=seats, seed=seed)

    assert len(ahead) == rounds - seated
    for tables in ahead:
        played.append(movement_round(field, played, rounds=rounds, seats=seats, seed=seed))
        assert played[-1] == tables
