"""A duplicate event's round-robin movement: who sits with whom, and at which position,
in every round, planned from the entrants before round 1 is seated (docs/duplicate.md,
"Movement"). Pure Python.

As a bridge club's Howell or Mitchell card, the plan depends only on the entrants, the
event's seed and the number of rounds, never on results, and every pair of entrants
meets as evenly as the rounds allow: each pair at most once whenever that is possible.

- **Exact designs** where they exist: tables of 2 by the circle method (any field; an
  odd field has one player a round with a bot); tables of 3 for 3, 9, 27, 81 entrants by
  the lines of the affine space AG(m, 3), 15 by Kirkman's schoolgirls and 21 by a
  Kirkman system with a symmetry of order 7; tables of 4
  for 4, 16, 64 entrants by AG(m, 4). Each is a list of rounds (*parallel classes*) in
  which every pair meets exactly once; more rounds than the design has go round it again
  with the entrants relabelled, so every pair meets ⌊R/c⌋ or ⌈R/c⌉ times.
- **Every other field** (a field that does not divide by the table size too, with the
  bots of :func:`~tournaments.pairing.common.table_plan`, one a table at the bottom
  tables): a seeded local search over the whole plan, as for the social golfer problem
  (swap two players of one round; tabu; restarts from the best plan found), which
  minimises, in this order, Σ C(m, 2) over the pairs' meetings m (no pair twice while
  that is possible, then the meetings as even as possible) and Σ b² over the players'
  bot-filled seats b (a bot table for each in turn). Its budget is counted in work, not
  seconds (``MOVEMENT_BUDGET``), so the plan is the same on any machine.
- **Positions** (0 deals first on board 1, docs/duplicate.md) are then given so that over
  the rounds every entrant holds each position as evenly as possible: de Werra's
  equitable edge colouring of the entrants × tables graph (two positions at a time made
  even by an Euler orientation), so each entrant's counts differ by at most one.
- **A change of the field** (a withdrawal, a disqualification, a walk-in) or a round
  that was seated otherwise (an organiser's reseat, with a new seed) re-plans the rounds
  still to come from the rounds played: the pairs who met, the bot tables and the
  positions held count (:func:`movement_round`).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Collection, Sequence

from tournaments.pairing.common import PairingError, PlayerId, TableSeats, check_seats, table_plan
from tournaments.pairing.movement.designs import (
    KIRKMAN_15,
    KIRKMAN_21_BASE,
    KIRKMAN_21_FIXED,
    affine_classes,
    circle_classes,
    design_classes,
    design_rounds,
    kirkman_21_classes,
    kirkman_classes,
)
from tournaments.pairing.movement.positions import positions_assign, positions_held
from tournaments.pairing.movement.search import PlanSearch

MOVEMENT_BUDGET = 150_000
"""Most work the movement's search does for one plan (a swap weighed is one unit, a table
looked at for conflicts one): about a second on an idle machine of this project's kind
for the hardest fields (`bench/movement.py` prints the figures). Fields with a plan
without repeats usually stop far earlier, as soon as the plan has none."""


def movement_plan(
    players: Collection[PlayerId],
    rounds: int,
    *,
    seats: int = 3,
    seed: int = 0,
    start: int = 1,
    history: Sequence[Sequence[TableSeats]] = (),
    hint: Sequence[Sequence[TableSeats]] = (),
    work_budget: int | None = MOVEMENT_BUDGET,
) -> list[list[TableSeats]]:
    """The movement of ``rounds`` rounds for ``players`` at tables of ``seats``.

    Each round is a list of tables by position (0 deals first), bots as ``None`` at the
    bottom tables, full tables first. ``history`` is the rounds played before (each a list
    of tables by position): with one, only the search plans, counting the meetings, bot
    tables and positions already played; without, an exact design where there is one.
    ``start`` (the number of the first planned round) and ``seed`` pick the draw: the same
    arguments give the same plan on any machine. ``hint`` (the rounds an earlier plan had
    for these rounds) is where the search starts: those who were in it keep their tables
    as far as the new field allows.
    """
    check_seats(seats)
    ids = sorted(set(players))
    if len(ids) != len(players):
        raise PairingError("a player is listed twice")
    if rounds < 1:
        return []
    plan = _plan(
        tuple(ids), rounds, seats, seed, start, _freeze(history), _freeze(hint), work_budget
    )
    return [list(r) for r in plan]


def movement_round(
    players: Collection[PlayerId],
    played: Sequence[Sequence[TableSeats]],
    *,
    rounds: int,
    seats: int = 3,
    seed: int = 0,
    work_budget: int | None = MOVEMENT_BUDGET,
) -> list[TableSeats]:
    """The tables of round ``len(played) + 1`` of an event of ``rounds`` rounds, whose
    rounds so far were ``played`` (tables by position) and whose field is now ``players``
    (the first of :func:`movement_ahead`)."""
    return movement_ahead(
        players, played, rounds=rounds, seats=seats, seed=seed, work_budget=work_budget
    )[0]


def movement_ahead(
    players: Collection[PlayerId],
    played: Sequence[Sequence[TableSeats]],
    *,
    rounds: int,
    seats: int = 3,
    seed: int = 0,
    work_budget: int | None = MOVEMENT_BUDGET,
) -> list[list[TableSeats]]:
    """The tables of round ``len(played) + 1`` and of each round after it to ``rounds``,
    as the plan has them while the field stays ``players``: what :func:`movement_round`
    will give each of those rounds if nobody leaves or joins (at least one round, the
    next, even past ``rounds``).

    The plan made when round 1 was seated (from round 1's field) holds as long as the
    field stays the same and each round was seated by it. From the first round whose field
    differs, or after a round seated otherwise, the rounds still to come are planned again
    from the rounds played before them (:func:`movement_plan` with that history and the
    round's number as ``start``, starting from the old plan's rounds so that everyone
    else keeps his tables where the search finds no better), and that plan holds in
    turn. So the tables of a round are a pure function of the rounds played, the field,
    the rounds and the seed.
    """
    number = len(played) + 1
    plan: list[list[TableSeats]] = []
    field: frozenset[PlayerId] = frozenset()
    first = 0
    replan = True
    for k in range(1, number + 1):
        now = frozenset(players) if k == number else _humans_of(played[k - 1])
        if replan or now != field:
            hint = plan[k - first :] if plan else []
            field, first = now, k
            plan = movement_plan(
                now,
                max(rounds - k + 1, 1),
                seats=seats,
                seed=seed,
                start=k,
                history=played[: k - 1],
                hint=hint,
                work_budget=work_budget,
            )
        if k == number:
            return plan[k - first :] if k - first < len(plan) else [plan[-1]]
        replan = k - first >= len(plan) or _meetings(played[k - 1]) != _meetings(plan[k - first])
    raise AssertionError("unreachable")


def _freeze(history: Sequence[Sequence[TableSeats]]) -> tuple[tuple[TableSeats, ...], ...]:
    return tuple(tuple(tuple(table) for table in round_tables) for round_tables in history)


def _humans_of(tables: Sequence[TableSeats]) -> frozenset[PlayerId]:
    return frozenset(p for table in tables for p in table if p is not None)


def _meetings(tables: Sequence[TableSeats]) -> frozenset[frozenset[PlayerId]]:
    """A round's tables as sets of humans (positions and table order aside)."""
    return frozenset(frozenset(p for p in table if p is not None) for table in tables)


@functools.lru_cache(maxsize=64)
def _plan(
    ids: tuple[PlayerId, ...],
    rounds: int,
    seats: int,
    seed: int,
    start: int,
    history: tuple[tuple[TableSeats, ...], ...],
    hint: tuple[tuple[TableSeats, ...], ...],
    budget: int | None,
) -> tuple[tuple[TableSeats, ...], ...]:
    """:func:`movement_plan` on a sorted field, memoised: a worker seating round after
    round of one event plans it once (the function is pure, so the cache is only speed)."""
    rng = random.Random(f"movement:{seed}:{start}:{len(ids)}")
    order = list(ids)
    rng.shuffle(order)  # index i of the plan is order[i]
    n = len(order)
    index = {p: i for i, p in enumerate(order)}
    sizes = table_plan(n, seats)
    past = [
        [[index.get(p) if p is not None else None for p in table] for table in round_tables]
        for round_tables in history
    ]
    groups = None if past or hint else design_rounds(n, seats, rounds, rng)
    if groups is None:
        hinted = [
            [[index[p] for p in table if p is not None and p in index] for table in round_tables]
            for round_tables in hint[:rounds]
        ]
        groups = PlanSearch(n, seats, sizes, rounds, past, rng, hinted).run(budget)
    held = positions_held(past, n, seats)
    positioned = positions_assign(groups, seats, held, even=not past)
    return tuple(
        tuple(tuple(order[x] if x is not None else None for x in table) for table in round_tables)
        for round_tables in positioned
    )


__all__ = [
    "KIRKMAN_15",
    "KIRKMAN_21_BASE",
    "KIRKMAN_21_FIXED",
    "MOVEMENT_BUDGET",
    "affine_classes",
    "circle_classes",
    "design_classes",
    "kirkman_21_classes",
    "kirkman_classes",
    "movement_ahead",
    "movement_plan",
    "movement_round",
]
