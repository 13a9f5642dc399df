"""The movement's search for fields without an exact design: a seeded tabu search over
the whole plan that minimises the pairs' repeated meetings, then the spread of the bot
tables. Pure Python."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Sequence

from tournaments.pairing.movement.designs import Groups

PAIR = 10**6
"""The weight of a pair's meetings (Σ C(m, 2)) over the bots' spread (Σ b²)."""


def _level_cost(counts: Counter[int], units: int, square: bool) -> int:
    """The least Σ C(m, 2) (or Σ m²) once ``units`` more are added one at a time to the
    lowest counts: a lower bound of what a plan can reach."""
    levels = Counter({k: v for k, v in counts.items() if v})
    while units:
        low = min(levels)
        take = min(levels[low], units)
        levels[low] -= take
        if not levels[low]:
            del levels[low]
        levels[low + 1] += take
        units -= take
    if square:
        return sum(c * m * m for m, c in levels.items())
    return sum(c * m * (m - 1) // 2 for m, c in levels.items())


class PlanSearch:
    """Tabu search over swaps of two players of one round (Dotú and Van Hentenryck's
    social golfer search), restarted from the best plan found with a few random swaps
    when it stalls."""

    def __init__(
        self,
        n: int,
        seats: int,
        sizes: Sequence[int],
        rounds: int,
        past: Sequence[Sequence[Sequence[int | None]]],
        rng: random.Random,
        hint: Sequence[Groups] = (),
    ) -> None:
        self.n, self.rng, self.rounds = n, rng, rounds
        self.sizes = list(sizes)
        self.botw = [seats - s for s in sizes]
        self.met = [[0] * n for _ in range(n)]
        self.bots = [0] * n
        for round_tables in past:
            for table in round_tables:
                humans = [x for x in table if x is not None]
                for a, b in itertools.combinations(humans, 2):
                    self.met[a][b] += 1
                    self.met[b][a] += 1
                for x in humans:
                    self.bots[x] += len(table) - len(humans)
        self.past_met = [row.copy() for row in self.met]
        self.past_bots = self.bots.copy()
        pairs = Counter(self.met[a][b] for a in range(n) for b in range(a + 1, n))
        units = rounds * sum(s * (s - 1) // 2 for s in sizes)
        bot_units = rounds * sum(s * w for s, w in zip(sizes, self.botw))
        self.bound = PAIR * _level_cost(pairs, units, square=False) + _level_cost(
            Counter(self.bots), bot_units, square=True
        )
        self.groups = [
            self._hinted_round(hint[r]) if r < len(hint) else self._greedy_round()
            for r in range(rounds)
        ]
        self.where = [self._where(g) for g in self.groups]
        self.cost = self._cost()

    # -- building

    def _greedy_round(self) -> Groups:
        """A round seated greedily: the bot tables' seats to those with the fewest bots
        so far, then each table the player who met its members least (ties at random)."""
        free = list(range(self.n))
        self.rng.shuffle(free)
        free.sort(key=lambda x: self.bots[x])
        at_bots = sum(s for s, w in zip(self.sizes, self.botw) if w)
        pools = {True: free[:at_bots], False: free[at_bots:]}
        groups: Groups = [[] for _ in self.sizes]
        for t in sorted(range(len(self.sizes)), key=lambda t: -self.botw[t]):
            pool = pools[bool(self.botw[t])]
            groups[t].append(pool.pop(0))
            self._top_up(groups[t], self.sizes[t], pool)
        return self._seated(groups)

    def _hinted_round(self, hint: Groups) -> Groups:
        """A round from an earlier plan's: its tables, largest first, trimmed or topped
        up to the table plan's sizes from those left over (newcomers, a trimmed table's
        last members), each the one who met the table least."""
        seated = {x for g in hint for x in g}
        pool = [x for x in range(self.n) if x not in seated]
        self.rng.shuffle(pool)
        old = sorted((list(g) for g in hint if g), key=len, reverse=True)
        order = sorted(range(len(self.sizes)), key=lambda t: -self.sizes[t])
        groups: Groups = [[] for _ in self.sizes]
        for i, t in enumerate(order):
            if i < len(old):
                groups[t] = old[i][: self.sizes[t]]
                pool.extend(old[i][self.sizes[t] :])
        for extra in old[len(order) :]:
            pool.extend(extra)  # a table fewer: its players go where there is room
        for t in order:
            self._top_up(groups[t], self.sizes[t], pool)
        return self._seated(groups)

    def _top_up(self, group: list[int], size: int, pool: list[int]) -> None:
        """Fill the table from the pool: each time the one who met its members least."""
        met = self.met
        while len(group) < size:
            best = min(range(len(pool)), key=lambda i: sum(met[pool[i]][y] for y in group))
            group.append(pool.pop(best))

    def _seated(self, groups: Groups) -> Groups:
        for t, group in enumerate(groups):
            self._enter(group, self.botw[t], 1)
        return groups

    def _enter(self, group: Sequence[int], bots: int, sign: int) -> None:
        met = self.met
        for a, b in itertools.combinations(group, 2):
            met[a][b] += sign
            met[b][a] += sign
        for x in group:
            self.bots[x] += sign * bots

    def _where(self, groups: Groups) -> list[int]:
        where = [0] * self.n
        for t, g in enumerate(groups):
            for x in g:
                where[x] = t
        return where

    def _cost(self) -> int:
        n, met = self.n, self.met
        pairs = sum(met[a][b] * (met[a][b] - 1) // 2 for a in range(n) for b in range(a + 1, n))
        return PAIR * pairs + sum(b * b for b in self.bots)

    def _reset(self, groups: list[Groups]) -> None:
        self.groups = [[g.copy() for g in round_tables] for round_tables in groups]
        self.where = [self._where(g) for g in self.groups]
        self.met = [row.copy() for row in self.past_met]
        self.bots = self.past_bots.copy()
        for round_tables in self.groups:
            for t, g in enumerate(round_tables):
                self._enter(g, self.botw[t], 1)
        self.cost = self._cost()

    # -- moves

    def delta(self, r: int, x: int, y: int) -> int:
        where = self.where[r]
        tx, ty = where[x], where[y]
        mx, my = self.met[x], self.met[y]
        d = 0
        for u in self.groups[r][tx]:
            if u != x:
                d += my[u] - mx[u] + 1
        for v in self.groups[r][ty]:
            if v != y:
                d += mx[v] - my[v] + 1
        d *= PAIR
        w = self.botw[ty] - self.botw[tx]
        if w:
            bx, by = self.bots[x], self.bots[y]
            d += (bx + w) ** 2 - bx * bx + (by - w) ** 2 - by * by
        return d

    def swap(self, r: int, x: int, y: int) -> None:
        where, groups = self.where[r], self.groups[r]
        tx, ty = where[x], where[y]
        gx, gy = groups[tx], groups[ty]
        self.cost += self.delta(r, x, y)
        met = self.met
        for u in gx:
            if u != x:
                met[x][u] -= 1
                met[u][x] -= 1
                met[y][u] += 1
                met[u][y] += 1
        for v in gy:
            if v != y:
                met[y][v] -= 1
                met[v][y] -= 1
                met[x][v] += 1
                met[v][x] += 1
        w = self.botw[ty] - self.botw[tx]
        self.bots[x] += w
        self.bots[y] -= w
        gx[gx.index(x)] = y
        gy[gy.index(y)] = x
        where[x], where[y] = ty, tx

    def conflicts(self, r: int) -> list[int]:
        """Players of round ``r`` at a table with a pair who meet twice or more, or at a
        bot table with two bots more than someone else."""
        met, low = self.met, min(self.bots)
        out = []
        for t, g in enumerate(self.groups[r]):
            if any(met[a][b] > 1 for a, b in itertools.combinations(g, 2)):
                out.extend(g)
            elif self.botw[t]:
                out.extend(x for x in g if self.bots[x] - low >= 2)
        return out

    def run(self, budget: int | None) -> list[Groups]:
        rng, n = self.rng, self.n
        best = [[g.copy() for g in round_tables] for round_tables in self.groups]
        best_cost = self.cost
        if len(self.sizes) < 2:
            return best
        tabu: dict[tuple[int, int, int], int] = {}
        work = 0
        step = stale = 0
        rounds = list(range(self.rounds))
        while best_cost > self.bound and (budget is None or work < budget):
            step += 1
            rng.shuffle(rounds)
            r, candidates = -1, []
            for r in rounds:
                work += len(self.groups[r])
                candidates = self.conflicts(r)
                if candidates:
                    break
            if not candidates:
                r = rounds[0]
                candidates = list(range(n))
            where = self.where[r]
            moves: list[tuple[int, int]] = []
            move_delta = 0
            for x in candidates:
                for y in range(n):
                    if where[y] == where[x] or (y in candidates and y < x):
                        continue
                    work += 1
                    d = self.delta(r, x, y)
                    key = (r, min(x, y), max(x, y))
                    if tabu.get(key, 0) > step and self.cost + d >= best_cost:
                        continue
                    if not moves or d < move_delta:
                        moves, move_delta = [(x, y)], d
                    elif d == move_delta:
                        moves.append((x, y))
            if not moves:
                continue
            x, y = rng.choice(moves)
            self.swap(r, x, y)
            tabu[(r, min(x, y), max(x, y))] = step + rng.randint(4, 30)
            if self.cost < best_cost:
                best, best_cost = (
                    [[g.copy() for g in round_tables] for round_tables in self.groups],
                    self.cost,
                )
                stale = 0
            else:
                stale += 1
            if stale > 100 + 5 * n:
                # Stalled: from the best plan again, shaken by a few random swaps.
                self._reset(best)
                for _ in range(max(2, n // 10)):
                    r = rng.randrange(self.rounds)
                    x, y = rng.sample(range(n), 2)
                    if self.where[r][x] != self.where[r][y]:
                        self.swap(r, x, y)
                stale = 0
                tabu.clear()
        self._reset(best)
        self.polish()
        return self.groups

    def polish(self) -> None:
        """Swaps that spread the bot tables without a meeting more: while any helps."""
        improved = True
        while improved:
            improved = False
            for r in range(self.rounds):
                for x in sorted(range(self.n), key=lambda p: -self.bots[p]):
                    if not self.botw[self.where[r][x]]:
                        continue
                    for y in range(self.n):
                        if self.botw[self.where[r][y]] < self.botw[self.where[r][x]] and (
                            self.delta(r, x, y) < 0
                        ):
                            self.swap(r, x, y)
                            improved = True
                            break
