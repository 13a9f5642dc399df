"""Seating rules (tournaments/pairing.py): Swiss, arena, knockout, bots, seat numbers."""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import (
    Entrant,
    History,
    PairingError,
    PlayerId,
    TableSeats,
    Waiting,
    arena_seating,
    assign_seats,
    bots_needed,
    check_round,
    knockout_advance_count,
    knockout_next_seeds,
    knockout_plan,
    knockout_qualifiers,
    knockout_seating,
    swiss_seating,
    table_plan,
)

seat_sizes = st.sampled_from((2, 3, 4))

Field = tuple[int, list[Entrant], History]


def random_round(rng: random.Random, players: Sequence[PlayerId], seats: int) -> list[TableSeats]:
    """A seating of ``players`` at random, with the plan's bots."""
    shuffled: list[PlayerId | None] = list(players)
    rng.shuffle(shuffled)
    tables: list[TableSeats] = []
    at = 0
    for size in table_plan(len(players), seats):
        table = shuffled[at : at + size] + [None] * (seats - size)
        rng.shuffle(table)
        tables.append(tuple(table))
        at += size
    return tables


@st.composite
def swiss_fields(
    draw: st.DrawFn, min_players: int = 1, max_players: int = 40, max_rounds: int = 4
) -> Field:
    """(seats, entrants in standings order, a history of random earlier rounds)."""
    seats = draw(seat_sizes)
    ids = draw(
        st.lists(st.integers(1, 10**6), min_size=min_players, max_size=max_players, unique=True)
    )
    rng = draw(st.randoms(use_true_random=False))
    history = History()
    for _ in range(draw(st.integers(0, max_rounds))):
        for table in random_round(rng, ids, seats):
            history.add(table)
    points = sorted((draw(st.integers(0, 3 * max_rounds)) for _ in ids), reverse=True)
    return seats, [Entrant(p, pts) for p, pts in zip(ids, points)], history


def humans(table: Sequence[PlayerId | None]) -> list[PlayerId]:
    return [p for p in table if p is not None]


def pairs_met_at(tables: Sequence[Sequence[PlayerId | None]], history: History) -> int:
    """Pairs seated together who had met before."""
    return sum(
        1
        for table in tables
        for a, b in itertools.combinations(humans(table), 2)
        if history.met(a, b)
    )


def fewest_pairs_met(players: Sequence[PlayerId], plan: Sequence[int], history: History) -> int:
    """Brute force: the fewest pairs who met before, over every split into these tables.

    The lowest player left opens a table of each remaining size in turn, with every choice
    of companions, so every split is visited.
    """

    @functools.cache
    def best(left: frozenset[PlayerId], sizes: tuple[int, ...]) -> int:
        if not left:
            return 0
        first = min(left)
        result = len(players) ** 2
        for size in set(sizes):
            rest = list(sizes)
            rest.remove(size)
            for others in itertools.combinations(sorted(left - {first}), size - 1):
                group = (first, *others)
                met = sum(1 for a, b in itertools.combinations(group, 2) if history.met(a, b))
                result = min(result, met + best(left - set(group), tuple(rest)))
        return result

    return best(frozenset(players), tuple(sorted(plan)))


# ----------------------------------------------------------------------------- table plan


@given(players=st.integers(1, 500), seats=seat_sizes)
def test_table_plan_seats_everyone_at_tables_as_even_as_possible(players: int, seats: int) -> None:
    plan = table_plan(players, seats)
    assert sum(plan) == players
    assert len(plan) == -(-players // seats)
    assert max(plan) <= seats and max(plan) - min(plan) <= 1
    assert plan == sorted(plan, reverse=True)  # the tables with bots are at the bottom


@given(players=st.integers(1, 500), seats=seat_sizes)
def test_bots_fill_fewer_seats_than_a_table(players: int, seats: int) -> None:
    assert 0 <= bots_needed(players, seats) < seats
    assert (players + bots_needed(players, seats)) % seats == 0


def test_ten_players_at_tables_of_three_get_two_bots_at_the_two_bottom_tables() -> None:
    tables = swiss_seating([Entrant(p) for p in range(10)], seats=3)
    assert [sum(1 for p in t if p is None) for t in tables] == [0, 0, 1, 1]


@pytest.mark.parametrize("seats", [0, 1, 5])
def test_tables_seat_two_three_or_four(seats: int) -> None:
    with pytest.raises(PairingError):
        table_plan(6, seats)


# ----------------------------------------------------------------------------- Swiss


@given(field=swiss_fields(), seed=st.integers(0, 3))
def test_swiss_seats_every_player_exactly_once_at_tables_of_the_right_size(
    field: Field, seed: int
) -> None:
    seats, entrants, history = field
    tables = swiss_seating(entrants, history, seats=seats, seed=seed, work_budget=None)
    check_round(tables, [e.player for e in entrants], seats)
    assert [len(humans(t)) for t in tables] == table_plan(len(entrants), seats)


@settings(max_examples=60)
@given(field=swiss_fields(max_players=9, max_rounds=5))
def test_swiss_seats_no_more_pairs_who_met_than_the_best_seating_there_is(field: Field) -> None:
    seats, entrants, history = field
    ids = [e.player for e in entrants]
    tables = swiss_seating(entrants, history, seats=seats, work_budget=None)
    assert pairs_met_at(tables, history) == fewest_pairs_met(
        ids, table_plan(len(ids), seats), history
    )


@settings(max_examples=40)
@given(field=swiss_fields(min_players=10, max_players=36, max_rounds=5), seed=st.integers(0, 3))
def test_swiss_search_leaves_no_swap_of_two_players_that_would_remove_a_repeat(
    field: Field, seed: int
) -> None:
    seats, entrants, history = field
    tables = swiss_seating(
        entrants, history, seats=seats, seed=seed, work_budget=None, exact_limit=0, kicks=0
    )
    met = pairs_met_at(tables, history)
    groups = [humans(t) for t in tables]
    for (t, g), (u, h) in itertools.combinations(enumerate(groups), 2):
        for i, j in itertools.product(range(len(g)), range(len(h))):
            swapped = [list(x) for x in groups]
            swapped[t][i], swapped[u][j] = h[j], g[i]
            assert pairs_met_at(swapped, history) >= met, (g[i], h[j])


@given(seats=seat_sizes, players=st.integers(1, 40))
def test_swiss_first_round_seats_the_top_of_the_standings_together(
    seats: int, players: int
) -> None:
    entrants = [Entrant(p, points=100 - p) for p in range(players)]
    tables = swiss_seating(entrants, seats=seats, work_budget=None)
    assert set(humans(tables[0])) == set(range(table_plan(players, seats)[0]))


def test_swiss_keeps_players_on_equal_points_together_when_they_have_not_met() -> None:
    # Round 2 of 9 players: the three winners of round 1 have not met each other.
    history = History([(0, 3, 6), (1, 4, 7), (2, 5, 8)])
    points = [3, 3, 3, 1, 1, 1, 0, 0, 0]
    tables = swiss_seating([Entrant(p, pts) for p, pts in enumerate(points)], history, seats=3)
    assert [set(t) for t in tables] == [{0, 1, 2}, {3, 4, 5}, {6, 7, 8}]


@settings(max_examples=40)
@given(field=swiss_fields(min_players=10, max_players=40), seed=st.integers(0, 10))
def test_swiss_is_the_same_for_the_same_input_and_seed(field: Field, seed: int) -> None:
    seats, entrants, history = field
    first = swiss_seating(entrants, history, seats=seats, seed=seed, work_budget=None, kicks=20)
    again = swiss_seating(entrants, history, seats=seats, seed=seed, work_budget=None, kicks=20)
    assert first == again


def test_swiss_seats_everyone_even_with_no_work_budget_to_improve() -> None:
    rng = random.Random(5)
    ids = list(range(600))
    history = History(t for _ in range(3) for t in random_round(rng, ids, 3))
    tables = swiss_seating([Entrant(p) for p in ids], history, seats=3, work_budget=0)
    check_round(tables, ids, 3)


def test_swiss_gives_no_player_a_second_bot_table_while_others_had_none() -> None:
    # 5 players at tables of 3: two of them sit with a bot. 3 and 4, at the bottom of
    # the standings, had a bot table before (with players who have left since).
    history = History([(3, 100, None), (4, 101, None)])
    tables = swiss_seating([Entrant(p) for p in range(5)], history, seats=3)
    bot_table = next(t for t in tables if None in t)
    assert set(humans(bot_table)) <= {0, 1, 2}


def test_swiss_rejects_a_player_listed_twice() -> None:
    with pytest.raises(PairingError, match="twice"):
        swiss_seating([Entrant(1), Entrant(2), Entrant(1)])


# ----------------------------------------------------------------------------- seat numbers


@given(seats=seat_sizes, seed=st.integers(0, 50))
def test_the_same_table_for_as_many_rounds_as_seats_gives_each_player_every_seat(
    seats: int, seed: int
) -> None:
    players = list(range(seats))
    history = History()
    rng = random.Random(seed)
    for _ in range(seats):
        order: list[PlayerId | None] = list(players)
        rng.shuffle(order)
        history.add(assign_seats(order, history, seats, rng))
    assert all(history.seat_counts(p, seats) == [1] * seats for p in players)


@settings(max_examples=50)
@given(seats=seat_sizes, rounds=st.integers(1, 6), extra=st.integers(0, 20), seed=st.integers())
def test_swiss_keeps_every_players_seat_counts_within_two_over_the_rounds(
    seats: int, rounds: int, extra: int, seed: int
) -> None:
    """In a field large enough that nobody has to meet again, nobody deals first (or sits
    on the hundred, or speaks first) more than twice as often as he must."""
    rng = random.Random(seed)
    players = list(range(2 * seats * rounds + extra))
    points = dict.fromkeys(players, 0)
    history = History()
    for rnd in range(rounds):
        order = sorted(players, key=lambda p: (-points[p], p))
        entrants = [Entrant(p, points[p]) for p in order]
        for table in swiss_seating(entrants, history, seats=seats, seed=rnd, work_budget=None):
            history.add(table)
            finish = list(table)
            rng.shuffle(finish)
            for place, p in enumerate(finish):
                if p is not None:
                    points[p] += max(0, 2 - place)
    counts = [history.seat_counts(p, seats) for p in players]
    assert max(max(c) - min(c) for c in counts) <= 2
    assert max(c[0] for c in counts) <= rounds // seats + 2


def test_a_bot_takes_the_seat_the_players_have_used_most() -> None:
    history = History([(1, 100, None), (2, 101, None)])  # each dealt first, with others
    table = assign_seats([1, 2, None], history, 3)
    assert table[0] is None


# ----------------------------------------------------------------------------- arena

Pool = tuple[int, list[Waiting], History, float]


@st.composite
def arena_pools(draw: st.DrawFn) -> Pool:
    seats = draw(seat_sizes)
    ids = draw(st.lists(st.integers(1, 10**6), max_size=30, unique=True))
    waiting = [
        Waiting(p, draw(st.integers(1000, 2200)), float(draw(st.integers(0, 200)))) for p in ids
    ]
    rng = draw(st.randoms(use_true_random=False))
    history = History(random_round(rng, ids, seats) if ids else [])
    return seats, waiting, history, 200.0


@given(pool=arena_pools(), bot_after=st.none() | st.floats(0, 300))
def test_arena_seats_only_free_players_each_at_most_once(
    pool: Pool, bot_after: float | None
) -> None:
    seats, waiting, history, now = pool
    tables = arena_seating(waiting, seats=seats, now=now, history=history, bot_after=bot_after)
    seated = [p for t in tables for p in humans(t)]
    assert len(seated) == len(set(seated))
    assert set(seated) <= {w.player for w in waiting}
    assert all(len(t) == seats for t in tables)
    if bot_after is None:
        assert all(None not in t for t in tables)


@given(pool=arena_pools())
def test_arena_tables_keep_to_the_longest_waiters_range_and_part_last_opponents(
    pool: Pool,
) -> None:
    seats, waiting, history, now = pool
    by_id = {w.player: w for w in waiting}
    tables = arena_seating(
        waiting,
        seats=seats,
        now=now,
        history=history,
        base_range=100,
        widen_per_second=2,
        rematch_after=150,
    )
    for table in tables:
        group = [by_id[p] for p in humans(table)]
        ratings = [w.rating for w in group]
        longest = max(now - w.since for w in group)
        assert max(ratings) - min(ratings) <= 100 + 2 * longest
        for a, b in itertools.combinations(group, 2):
            if a.player in history.last_opponents(b.player):
                assert min(now - a.since, now - b.since) >= 150


def test_arena_range_widens_with_waiting() -> None:
    waiting = [Waiting(1, 1500, 0.0), Waiting(2, 1520, 0.0), Waiting(3, 1800, 0.0)]
    assert arena_seating(waiting, now=0.0, base_range=100, widen_per_second=5) == []
    tables = arena_seating(waiting, now=50.0, base_range=100, widen_per_second=5)
    assert [set(t) for t in tables] == [{1, 2, 3}]


def test_arena_does_not_reseat_last_tables_opponents_at_once() -> None:
    history = History([(1, 2, 3)])
    waiting = [Waiting(p, 1500, 100.0) for p in (1, 2, 3)]
    assert arena_seating(waiting, now=110.0, history=history, rematch_after=60) == []
    assert len(arena_seating(waiting, now=170.0, history=history, rematch_after=60)) == 1


def test_arena_seats_a_long_waiting_player_with_bots() -> None:
    waiting = [Waiting(1, 1500, 0.0)]
    assert arena_seating(waiting, now=10.0, bot_after=30) == []
    [table] = arena_seating(waiting, now=30.0, bot_after=30)
    assert sorted(table, key=lambda p: p is None) == [1, None, None]


def test_arena_seats_the_longest_waiting_players_first() -> None:
    waiting = [Waiting(p, 1500, float(p)) for p in range(1, 6)]
    [table] = arena_seating(waiting, now=10.0)
    assert set(table) == {1, 2, 3}


# ----------------------------------------------------------------------------- knockout


@given(players=st.integers(1, 1000), seats=seat_sizes, data=st.data())
def test_knockout_shrinks_every_round_down_to_one_final_table(
    players: int, seats: int, data: st.DataObject
) -> None:
    advance = data.draw(st.integers(1, seats - 1))
    fields = knockout_plan(players, seats=seats, advance=advance)
    assert fields[0] == players and fields[-1] <= seats
    assert all(b < a for a, b in itertools.pairwise(fields))


@given(players=st.integers(1, 100), seats=seat_sizes)
def test_knockout_seats_everyone_once_and_the_top_seeds_at_different_tables(
    players: int, seats: int
) -> None:
    seeds = list(range(100, 100 + players))
    tables = knockout_seating(seeds, seats=seats)
    check_round(tables, seeds, seats)
    top = seeds[: len(tables)]
    table_of = {p: i for i, t in enumerate(tables) for p in humans(t)}
    assert len({table_of[s] for s in top}) == len(tables)


def test_knockout_bots_sit_with_the_top_seeds() -> None:
    tables = knockout_seating(list(range(1, 8)), seats=3)  # 7 players: 3 tables, 2 bots
    assert {min(humans(t)) for t in tables if None in t} == {1, 2}


@given(seats=seat_sizes, data=st.data())
def test_knockout_bots_never_go_through(seats: int, data: st.DataObject) -> None:
    advance = data.draw(st.integers(1, seats - 1))
    table: list[PlayerId | None] = [1, 2, 3, 4][: seats - 1]
    table.append(None)
    finish = data.draw(st.permutations(table))
    through = knockout_qualifiers(finish, table, advance)
    assert None not in through
    assert through == humans(finish)[: knockout_advance_count(table, advance)]


def test_a_table_with_a_bot_sends_one_player_fewer_through() -> None:
    assert knockout_advance_count((1, 2, 3), 2) == 2
    assert knockout_advance_count((1, 2, None), 2) == 1
    assert knockout_advance_count((1, None, None), 2) == 1


def test_knockout_next_round_puts_table_winners_first_then_by_seed() -> None:
    qualifiers = [(2, 1, 10), (1, 3, 30), (1, 2, 20), (2, 4, 40)]
    assert knockout_next_seeds(qualifiers) == [20, 30, 10, 40]


def test_knockout_rejects_a_field_that_cannot_shrink() -> None:
    with pytest.raises(PairingError):
        knockout_plan(9, seats=3, advance=3)


# ----------------------------------------------------------------------------- history, checks


def test_history_counts_a_pairs_meetings_beyond_the_first_as_repeats() -> None:
    history = History([(1, 2, 3), (1, 2, 4), (1, 2, 3)])
    assert history.met(1, 2) == 3
    assert history.repeats() == 4  # 1-2 twice more; 1-3 and 2-3 once more each


def test_history_rejects_a_player_twice_at_one_table() -> None:
    with pytest.raises(PairingError):
        History([(1, 1, 2)])


def test_check_round_names_the_missing_and_the_doubled() -> None:
    with pytest.raises(PairingError, match=r"missing \[3\].*twice \[1\]"):
        check_round([(1, 2, None), (1, None, None)], [1, 2, 3], 3)


def crowded_field(
    players: int, rounds: int, seats: int, seed: int
) -> tuple[list[Entrant], History]:
    """A large field after some rounds seated at random: many would meet again."""
    rng = random.Random(seed)
    history = History()
    for _ in range(rounds):
        for table in random_round(rng, range(players), seats):
            history.add(table)
    points = {p: rng.randrange(rounds * 3 + 1) for p in range(players)}
    order = sorted(points, key=lambda p: (-points[p], p))
    return [Entrant(p, points[p]) for p in order], history


def test_a_large_swiss_field_is_seated_the_same_way_twice_with_one_seed() -> None:
    # The search is bounded by work, not by the clock: a busy machine seats
    # the same tables as an idle one.
    entrants, history = crowded_field(3000, rounds=4, seats=3, seed=7)

    first = swiss_seating(entrants, history, seats=3, seed=11)
    second = swiss_seating(entrants, history, seats=3, seed=11)

    assert first == second
