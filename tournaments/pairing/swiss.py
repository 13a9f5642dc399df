"""Swiss seating: the costs in tiers, small fields solved exactly, larger ones from a greedy
seating improved by a seeded search with a budget in work (the package's docstring has
the order of the tiers). Pure Python."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Sequence

from tournaments.pairing.common import (
    AGAIN,
    BOT_AGAIN,
    RANK,
    REPEAT,
    SEAT,
    SPREAD,
    UNEVEN,
    Entrant,
    History,
    PairingError,
    TableSeats,
    assign_seats,
    check_seats,
    seat_cost,
    table_plan,
)

EXACT_LIMIT = 6_000
"""Fields with at most this many distinct seatings are solved by trying them all."""

WORK_BUDGET = 50_000
"""Most swap candidates the Swiss search weighs: about half a second of search on an idle
machine of this project's kind (`bench/pairing.py` prints the figures). A budget in work,
not in seconds, keeps the seating reproducible: the same field and seed seat the same
tables on any machine, however busy."""

KICKS = 200
"""Most restarts of the Swiss search from a shaken copy of the best seating found."""

GREEDY_WINDOW = 12
"""How far down the standings the greedy seating looks for a table's companions."""


# ----------------------------------------------------------------------------- Swiss


class _Field:
    """The Swiss field by standings index (0 = leader), with the costs of a table."""

    def __init__(self, entrants: Sequence[Entrant], history: History, seats: int) -> None:
        self.seats = seats
        self.ids = [e.player for e in entrants]
        self.points = [e.points for e in entrants]
        index = {p: i for i, p in enumerate(self.ids)}
        self.met: list[dict[int, int]] = [
            {index[q]: c for q, c in history.opponents(p).items() if q in index} for p in self.ids
        ]
        self.bots = [history.bot_tables(p) for p in self.ids]
        # Players' seat-cost vectors are few and repeat: number them, memoise by group.
        vectors: dict[tuple[int, ...], int] = {(0,) * seats: 0}
        self.seat_vector: list[int] = []
        for p in self.ids:
            counts = history.seat_counts(p, seats)
            costs = tuple(seat_cost(counts, s) for s in range(seats))
            self.seat_vector.append(vectors.setdefault(costs, len(vectors)))
        self.vectors = list(vectors)
        self.orders = {
            m: list(itertools.permutations(range(seats), m)) for m in range(1, seats + 1)
        }
        self.imbalance: dict[tuple[int, ...], int] = {}

    def seat_imbalance(self, group: Sequence[int]) -> int:
        """The least total :func:`seat_cost` of the group's best seat numbers."""
        key = tuple(sorted([self.seat_vector[x] for x in group]))
        found = self.imbalance.get(key)
        if found is None:
            if not any(key):
                found = 0
            else:
                table = [self.vectors[v] for v in key]
                found = min(
                    sum(c[s] for c, s in zip(table, order)) for order in self.orders[len(key)]
                )
            self.imbalance[key] = found
        return found

    def cost(self, group: Sequence[int], with_bots: bool) -> int:
        cost = 0
        met = self.met
        for i in range(1, len(group)):
            seen = met[group[i]]
            if seen:
                for j in range(i):
                    m = seen.get(group[j])
                    if m:
                        cost += REPEAT + AGAIN * (m - 1)
        if with_bots:
            cost += BOT_AGAIN * sum(self.bots[x] for x in group)
        pts = [self.points[x] for x in group]
        return (
            cost
            + SPREAD * (max(pts) - min(pts))
            + SEAT * self.seat_imbalance(group)
            + RANK * (max(group) - min(group))
        )


def swiss_seating(
    entrants: Sequence[Entrant],
    history: History | None = None,
    *,
    seats: int = 3,
    seed: int = 0,
    work_budget: int | None = WORK_BUDGET,
    exact_limit: int = EXACT_LIMIT,
    kicks: int = KICKS,
) -> list[TableSeats]:
    """Seat one Swiss round. ``entrants`` in standings order (best first).

    Returns the tables from the top of the standings down, each in seat-number order, bots
    as ``None`` at the bottom tables. ``work_budget`` (swaps weighed, ``None`` = none)
    bounds the improvement search on large fields: counted in work, not seconds, so the
    same field and seed give the same seating on any machine; ``exact_limit`` is the largest number of distinct
    seatings tried exhaustively; ``kicks`` bounds the restarts of the search while
    repeats remain.
    """
    check_seats(seats)
    history = history or History()
    ids = [e.player for e in entrants]
    if len(set(ids)) != len(ids):
        raise PairingError("a player is listed twice")
    plan = table_plan(len(ids), seats)
    field = _Field(entrants, history, seats)
    rng = random.Random(seed)
    if seating_count(plan) <= exact_limit:
        groups = _exact(field, plan)
    else:
        groups = _Search(field, plan, _greedy(field, plan), rng, work_budget).run(kicks)
    return [
        assign_seats([field.ids[x] for x in g] + [None] * (seats - len(g)), history, seats, rng)
        for g in groups
    ]


def seating_count(plan: Sequence[int]) -> int:
    """How many distinct ways there are to split the field into tables of these sizes."""
    n = sum(plan)
    count = math.factorial(n)
    for size in plan:
        count //= math.factorial(size)
    for multiplicity in Counter(plan).values():
        count //= math.factorial(multiplicity)
    return count


def _exact(field: _Field, plan: Sequence[int]) -> list[list[int]]:
    """Every seating, cheapest first found (players placed in standings order)."""
    n = sum(plan)
    groups: list[list[int]] = [[] for _ in plan]
    with_bots = [size < field.seats for size in plan]
    best: list[list[int]] = []
    best_cost = math.inf

    def place(x: int, cost: int) -> None:
        nonlocal best, best_cost
        if cost >= best_cost:
            return
        if x == n:
            best, best_cost = [list(g) for g in groups], cost
            return
        for t, g in enumerate(groups):
            if len(g) == plan[t]:
                continue
            # Empty tables of one size are interchangeable: open only the first of them.
            if not g and t > 0 and plan[t - 1] == plan[t] and not groups[t - 1]:
                continue
            g.append(x)
            done = len(g) == plan[t]
            place(x + 1, cost + (field.cost(g, with_bots[t]) if done else 0))
            g.pop()

    place(0, 0)
    return _ordered(best, plan)


def _ordered(groups: list[list[int]], plan: Sequence[int]) -> list[list[int]]:
    """Tables of one size in order of their best-placed player, members in standings order."""
    out: list[list[int]] = []
    for size in sorted(set(plan), reverse=True):
        out.extend(sorted((sorted(g) for g in groups if len(g) == size), key=lambda g: g[0]))
    return out


def _greedy(field: _Field, plan: Sequence[int]) -> list[list[int]]:
    """From the top of the standings: each table takes the best-placed free player, then
    the next best-placed who met nobody at the table yet (among the next few; failing
    that, the one who met the fewest)."""
    met, points = field.met, field.points
    remaining = list(range(len(field.ids)))
    groups: list[list[int]] = []
    for size in plan:
        group = [remaining[0]]
        taken = [0]
        while len(group) < size:
            best_key: tuple[int, int] | None = None
            best_at = 0
            for at in range(1, min(len(remaining), GREEDY_WINDOW + 1)):
                if at in taken:
                    continue
                y = remaining[at]
                key = (sum(1 for x in group if y in met[x]), abs(points[group[0]] - points[y]))
                if best_key is None or key < best_key:
                    best_key, best_at = key, at
                    if key[0] == 0:
                        break  # later candidates are no nearer in the standings
            taken.append(best_at)
            group.append(remaining[best_at])
        for at in sorted(taken, reverse=True):
            del remaining[at]
        groups.append(group)
    return groups


BAD = min(AGAIN, BOT_AGAIN, SEAT * UNEVEN * 4)
"""A table costing this much has a repeat, a second bot table or a seat three apart: the
search works on it."""


class _Search:
    """Local search over swaps of two players between tables, restarted from random kicks
    (iterated local search) while repeats remain and the budget lasts."""

    def __init__(
        self,
        field: _Field,
        plan: Sequence[int],
        groups: list[list[int]],
        rng: random.Random,
        budget: int | None,
    ) -> None:
        self.field = field
        self.bots = [size < field.seats for size in plan]
        self.groups = groups
        self.cost = [field.cost(g, self.bots[t]) for t, g in enumerate(groups)]
        self.rng = rng
        self.budget = budget
        self.weighed = 0  # swaps weighed so far: the work the budget counts

    def out_of_time(self) -> bool:
        return self.budget is not None and self.weighed > self.budget

    def best_swap(self, t: int, u: int, x_at: int) -> tuple[int, int]:
        """(delta, index at u) of the best swap of ``groups[t][x_at]`` with one of u's."""
        field, groups, cost, bots = self.field, self.groups, self.cost, self.bots
        g, h = groups[t], groups[u]
        x = g[x_at]
        best = (0, -1)
        self.weighed += len(h)
        for y_at, y in enumerate(h):
            g2 = g.copy()
            g2[x_at] = y
            h2 = h.copy()
            h2[y_at] = x
            delta = field.cost(g2, bots[t]) + field.cost(h2, bots[u]) - cost[t] - cost[u]
            if delta < best[0]:
                best = (delta, y_at)
        return best

    def swap(self, t: int, x_at: int, u: int, y_at: int) -> None:
        g, h = self.groups[t], self.groups[u]
        g[x_at], h[y_at] = h[y_at], g[x_at]
        self.cost[t] = self.field.cost(g, self.bots[t])
        self.cost[u] = self.field.cost(h, self.bots[u])

    def descend(self) -> bool:
        """Improve the tables that cost ``BAD`` or more until no swap helps; False when the
        time ran out first.

        Each member of such a table is tried against every other table, nearest first; the
        best swap at the nearest distance that has an improving one is made.
        """
        tables = len(self.groups)
        improved = True
        while improved:
            improved = False
            bad = [t for t in range(tables) if self.cost[t] >= BAD]
            self.rng.shuffle(bad)
            for t in bad:
                for x_at in range(len(self.groups[t])):
                    if self.cost[t] < BAD:
                        break
                    for distance in range(1, tables):
                        found = (0, -1, -1)
                        for u in (t - distance, t + distance):
                            if 0 <= u < tables:
                                delta, y_at = self.best_swap(t, u, x_at)
                                if delta < found[0]:
                                    found = (delta, u, y_at)
                        if found[1] >= 0:
                            self.swap(t, x_at, found[1], found[2])
                            improved = True
                            break
                        if self.out_of_time():
                            return False
            if self.out_of_time():
                return False
        return True

    def polish(self, passes: int = 3) -> None:
        """Swaps between neighbouring tables (narrow the spreads, balance the seats).

        Tables costing less than ``SEAT`` (points level, seats balanced) are left alone.
        """
        for _ in range(passes):
            improved = False
            for t in range(len(self.groups) - 1):
                if self.cost[t] < SEAT and self.cost[t + 1] < SEAT:
                    continue
                for x_at in range(len(self.groups[t])):
                    delta, y_at = self.best_swap(t, t + 1, x_at)
                    if delta < 0:
                        self.swap(t, x_at, t + 1, y_at)
                        improved = True
            if not improved or self.out_of_time():
                return

    def kick(self) -> None:
        """Swap a random member of a random costly table with a player at a near table."""
        tables = len(self.groups)
        bad = [t for t in range(tables) if self.cost[t] >= BAD]
        t = self.rng.choice(bad)
        u = min(max(t + self.rng.choice((-3, -2, -1, 1, 2, 3)), 0), tables - 1)
        if u == t:
            u = t + 1 if t + 1 < tables else t - 1
        self.swap(
            t, self.rng.randrange(len(self.groups[t])), u, self.rng.randrange(len(self.groups[u]))
        )

    def run(self, kicks: int) -> list[list[int]]:
        finished = self.descend()
        best = [g.copy() for g in self.groups]
        best_cost = sum(self.cost)
        for _ in range(kicks):
            if not finished or len(self.groups) < 2 or max(self.cost) < BAD:
                break  # out of time, or nothing left to mend
            self.kick()
            finished = self.descend()
            total = sum(self.cost)
            if total < best_cost:
                best, best_cost = [g.copy() for g in self.groups], total
            else:
                self.groups = [g.copy() for g in best]
                self.cost = [self.field.cost(g, self.bots[t]) for t, g in enumerate(self.groups)]
        self.groups = best
        self.cost = [self.field.cost(g, self.bots[t]) for t, g in enumerate(self.groups)]
        self.polish()
        if finished:
            self.descend()  # the polish may have opened a swap that mends a repeat
        return self.groups
