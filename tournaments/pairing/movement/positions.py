"""The movement's positions: who deals first at each table of each round, as evenly as
can be over the rounds for every entrant. Pure Python."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence

from tournaments.pairing.movement.designs import Groups


def positions_held(
    past: Sequence[Sequence[Sequence[int | None]]], n: int, seats: int
) -> list[list[int]]:
    held = [[0] * seats for _ in range(n)]
    for round_tables in past:
        for table in round_tables:
            for position, x in enumerate(table):
                if x is not None:
                    held[x][position] += 1
    return held


def positions_assign(
    rounds: Sequence[Groups], seats: int, held: list[list[int]], *, even: bool
) -> list[list[tuple[int | None, ...]]]:
    """Each table's members by position, the positions as even as can be over the rounds.

    First round by round, each table the arrangement with the fewest earlier holdings
    (counted squared, as :func:`tournaments.duplicate.rotate_seats`); then, for a plan
    without a past (``even``), de Werra's recolouring: while an entrant holds position a
    two or more times more than b, the tables' a and b are given again along an Euler
    orientation of the entrants × tables graph of those two positions, which makes every
    entrant's a and b differ by at most one and changes no other position."""
    counts = [row.copy() for row in held]
    # colour[r][t] maps a member to his position.
    colour: list[list[dict[int, int]]] = []
    for groups in rounds:
        this: list[dict[int, int]] = []
        for g in groups:
            best: tuple[int, ...] = ()
            best_cost = -1
            for order in itertools.permutations(range(seats), len(g)):
                cost = sum(counts[x][p] ** 2 for x, p in zip(g, order))
                if best_cost < 0 or cost < best_cost:
                    best, best_cost = order, cost
            this.append(dict(zip(g, best)))
            for x, p in zip(g, best):
                counts[x][p] += 1
        colour.append(this)
    if even:
        _equitable(colour, counts, seats)
    out: list[list[tuple[int | None, ...]]] = []
    for this in colour:
        tables = []
        for seat_of in this:
            table: list[int | None] = [None] * seats
            for x, p in seat_of.items():
                table[p] = x
            tables.append(tuple(table))
        out.append(tables)
    return out


def _equitable(colour: list[list[dict[int, int]]], counts: list[list[int]], seats: int) -> None:
    while True:
        found = next(
            (
                (a, b)
                for row in counts
                for a, b in itertools.permutations(range(seats), 2)
                if row[a] - row[b] >= 2
            ),
            None,
        )
        if found is None:
            return
        _recolour(colour, counts, *found)


def _recolour(colour: list[list[dict[int, int]]], counts: list[list[int]], a: int, b: int) -> None:
    """Give positions a and b again at every table, evenly for every entrant (Euler
    orientation: an edge walked from the entrant to the table is a, back is b)."""
    # Vertices: ("p", x) entrants, ("t", r, t) tables, and one dummy joined to every
    # vertex of odd degree, so that every component has an Euler circuit.
    edges: list[tuple[object, object]] = []
    owner: list[tuple[int, int, int]] = []  # (round, table, entrant) of a real edge
    for r, this in enumerate(colour):
        for t, seat_of in enumerate(this):
            for x, p in seat_of.items():
                if p in (a, b):
                    edges.append((("p", x), ("t", r, t)))
                    owner.append((r, t, x))
    real = len(edges)
    degree: Counter[object] = Counter()
    for u, v in edges:
        degree[u] += 1
        degree[v] += 1
    dummy = ("dummy",)
    for vertex in sorted((v for v, d in degree.items() if d % 2), key=repr):
        edges.append((vertex, dummy))
    adjacent: dict[object, list[int]] = {}
    for e, (u, v) in enumerate(edges):
        adjacent.setdefault(u, []).append(e)
        adjacent.setdefault(v, []).append(e)
    used = [False] * len(edges)
    forward = [True] * len(edges)  # walked from edges[e][0] to edges[e][1]
    pointer = dict.fromkeys(adjacent, 0)
    for root in adjacent:
        # Hierholzer's walk, orienting each edge the way it is first walked: every vertex
        # is entered as often as left.
        stack = [root]
        while stack:
            v = stack[-1]
            adj = adjacent[v]
            while pointer[v] < len(adj) and used[adj[pointer[v]]]:
                pointer[v] += 1
            if pointer[v] == len(adj):
                stack.pop()
                continue
            e = adj[pointer[v]]
            used[e] = True
            u, w = edges[e]
            forward[e] = u == v
            stack.append(w if u == v else u)
    for e in range(real):
        r, t, x = owner[e]
        old = colour[r][t][x]
        new = a if forward[e] else b
        if new != old:
            colour[r][t][x] = new
            counts[x][old] -= 1
            counts[x][new] += 1
