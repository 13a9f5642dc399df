"""Knockout seating: tables by seed, who advances, the next round's seeds. Pure Python."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from tournaments.pairing.common import (
    History,
    PairingError,
    PlayerId,
    TableSeats,
    assign_seats,
    check_seats,
    table_plan,
)

# ----------------------------------------------------------------------------- knockout


def knockout_seating(
    seeds: Sequence[PlayerId],
    *,
    seats: int = 3,
    history: History | None = None,
    seed: int = 0,
) -> list[TableSeats]:
    """Seat a knockout round: ``seeds`` best first, dealt to the tables in a snake (1st,
    2nd, 3rd table, then back), so that the top seeds meet as late as possible.

    The bots of a field that does not divide go to the top seeds' tables (as byes go to
    the top seeds). A field that fits one table is the final table. Seat numbers are
    balanced over the rounds as in the Swiss (:func:`assign_seats`).
    """
    check_seats(seats)
    if len(set(seeds)) != len(seeds):
        raise PairingError("a player is listed twice")
    history = history or History()
    rng = random.Random(seed)
    plan = table_plan(len(seeds), seats)[::-1]  # the tables with bots first
    groups: list[list[PlayerId | None]] = [[] for _ in plan]
    order = list(range(len(plan)))
    pending = list(reversed(seeds))
    row = 0
    while pending:
        for t in order if row % 2 == 0 else order[::-1]:
            if len(groups[t]) < plan[t] and pending:
                groups[t].append(pending.pop())
        row += 1
    return [assign_seats(g + [None] * (seats - len(g)), history, seats, rng) for g in groups]


def knockout_advance_count(table: Sequence[PlayerId | None], advance: int) -> int:
    """How many of a table's humans go through: ``advance`` less the table's bots, at least
    one (so that every round shrinks the field, whatever the bots do)."""
    bots = sum(1 for p in table if p is None)
    humans = len(table) - bots
    return min(humans, max(1, advance - bots))


def knockout_qualifiers(
    finish: Sequence[PlayerId | None], table: Sequence[PlayerId | None], advance: int
) -> list[PlayerId]:
    """The humans who go through from a finished table: ``finish`` is the table's seats in
    finishing order (ties already broken); bots never go through."""
    humans = [p for p in finish if p is not None]
    return humans[: knockout_advance_count(table, advance)]


def knockout_plan(players: int, *, seats: int = 3, advance: int = 1) -> list[int]:
    """The field of every round, the first to the final table's, for ``advance`` players
    going through from each full table."""
    check_seats(seats)
    if not 1 <= advance < seats:
        raise PairingError(f"between 1 and {seats - 1} players go through from a table")
    if players < 1:
        raise PairingError("nobody to seat")
    fields = [players]
    while fields[-1] > seats:
        n = fields[-1]
        nxt = 0
        for humans in table_plan(n, seats):
            nxt += knockout_advance_count([0] * humans + [None] * (seats - humans), advance)
        fields.append(nxt)
    return fields


def knockout_next_seeds(
    qualifiers: Iterable[tuple[int, int, PlayerId]],
) -> list[PlayerId]:
    """Order next round's field: ``(place at the table, previous seed, player)`` triples,
    winners of the tables first, each group by previous seed."""
    return [p for _, _, p in sorted(qualifiers)]
