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
import itertools
import random
from collections import Counter
from collections.abc import Callable, Collection, Sequence

from tournaments.pairing.common import PairingError, PlayerId, TableSeats, check_seats, table_plan

MOVEMENT_BUDGET = 150_000
"""Most work the movement's search does for one plan (a swap weighed is one unit, a table
looked at for conflicts one): about a second on an idle machine of this project's kind
for the hardest fields (`bench/movement.py` prints the figures). Fields with a plan
without repeats usually stop far earlier, as soon as the plan has none."""

PAIR = 10**6
"""The weight of a pair's meetings (Σ C(m, 2)) over the bots' spread (Σ b²)."""

Groups = list[list[int]]
"""One round: the tables' members as indices into the field, full tables first."""


# ----------------------------------------------------------------------------- public


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


# ----------------------------------------------------------------------------- the plan


def _freeze(history: Sequence[Sequence[TableSeats]]) -> tuple[tuple[TableSeats, ...], ...]:
    return tuple(tuple(tuple(table) for table in rnd) for rnd in history)


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
        [[index.get(p) if p is not None else None for p in table] for table in rnd]
        for rnd in history
    ]
    groups = None if past or hint else _design(n, seats, rounds, rng)
    if groups is None:
        hinted = [
            [[index[p] for p in table if p is not None and p in index] for table in rnd]
            for rnd in hint[:rounds]
        ]
        groups = _Search(n, seats, sizes, rounds, past, rng, hinted).run(budget)
    held = _held(past, n, seats)
    positioned = _positions(groups, seats, held, even=not past)
    return tuple(
        tuple(tuple(order[x] if x is not None else None for x in table) for table in rnd)
        for rnd in positioned
    )


# ----------------------------------------------------------------------------- designs

KIRKMAN_15 = (
    "ABC DEF GHI JKL MNO",
    "ADH BEK CIO FLN GJM",
    "AEM BHN CGK DIL FJO",
    "AFI BLO CHJ DKM EGN",
    "AGL BDJ CFM EHO IKN",
    "AJN BIM CEL DGO FHK",
    "AKO BFG CDN EIJ HLM",
)
"""Kirkman's fifteen schoolgirls (1850): seven days, every pair walks together once."""

KIRKMAN_21_BASE = (
    ((0, 0), (1, 0), (3, 0)),
    ((0, 1), (2, 0), (6, 2)),
    ((0, 2), (6, 0), (2, 1)),
    ((1, 1), (4, 0), (3, 2)),
    ((1, 2), (5, 0), (4, 1)),
    ((2, 2), (4, 2), (5, 2)),
    ((3, 1), (5, 1), (6, 1)),
)
"""A Kirkman system of 21 on the points (x, level), x in Z₇, level 0..2: seven days are
this day and its six shifts x ↦ x + s; the three others are :data:`KIRKMAN_21_FIXED`.
Found by a search for one with this symmetry: the 70 triples' differences (within a
level ±d, across two levels d) are each met once, so every pair walks together once."""

KIRKMAN_21_FIXED = ((0, 0), (1, 2), (2, 5))
"""The three days {(x, 0), (x + a, 1), (x + b, 2)} for x in Z₇, each (a, b)."""

_GF4_MUL = ((0, 0, 0, 0), (0, 1, 2, 3), (0, 2, 3, 1), (0, 3, 1, 2))
"""GF(4) = {0, 1, x, x + 1} as 0..3; addition is exclusive or."""


def _field_ops(q: int) -> tuple[Callable[[int, int], int], Callable[[int, int], int]]:
    if q == 4:
        return (lambda a, b: a ^ b), (lambda a, b: _GF4_MUL[a][b])
    return (lambda a, b: (a + b) % q), (lambda a, b: (a * b) % q)


def affine_classes(q: int, m: int) -> list[Groups]:
    """The parallel classes of the lines of AG(m, q) (q = 2, 3 or 4), points numbered by
    their coordinates in base q: each class splits the qᵐ points into lines of q, and two
    points lie on exactly one line, so in exactly one class."""
    add, mul = _field_ops(q)
    points = list(itertools.product(range(q), repeat=m))
    number = {p: i for i, p in enumerate(points)}
    directions = [d for d in points if any(d) and d[next(i for i, c in enumerate(d) if c)] == 1]
    classes: list[Groups] = []
    for d in directions:
        seen: set[int] = set()
        lines: Groups = []
        for p in points:
            if number[p] in seen:
                continue
            line = [number[tuple(add(pc, mul(t, dc)) for pc, dc in zip(p, d))] for t in range(q)]
            seen.update(line)
            lines.append(sorted(line))
        classes.append(lines)
    return classes


def circle_classes(n: int) -> list[Groups]:
    """The circle method for tables of 2: n − 1 rounds (n even) or n (n odd, one player a
    round alone, with a bot), every pair once. The lone player's table comes last."""
    m = n + n % 2
    ring = list(range(m))
    classes: list[Groups] = []
    for _ in range(m - 1):
        pairs = [[ring[i], ring[m - 1 - i]] for i in range(m // 2)]
        full = [sorted(p) for p in pairs if n not in p]
        alone = [[x for x in p if x != n] for p in pairs if n in p]
        classes.append(full + alone)
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return classes


def kirkman_classes() -> list[Groups]:
    return [[sorted(ord(c) - ord("A") for c in walk) for walk in day.split()] for day in KIRKMAN_15]


def kirkman_21_classes() -> list[Groups]:
    """Ten days of 21 (:data:`KIRKMAN_21_BASE`); the point (x, level) is 7 × level + x."""

    def number(x: int, level: int) -> int:
        return 7 * level + x % 7

    days = [
        [sorted(number(x + s, level) for x, level in walk) for walk in KIRKMAN_21_BASE]
        for s in range(7)
    ]
    days += [
        [sorted((number(x, 0), number(x + a, 1), number(x + b, 2))) for x in range(7)]
        for a, b in KIRKMAN_21_FIXED
    ]
    return days


def design_classes(n: int, seats: int) -> list[Groups] | None:
    """An exact design for ``n`` at tables of ``seats``, if this module knows one."""
    if seats == 2:
        return circle_classes(n) if n >= 2 else None
    if seats == 3 and n == 15:
        return kirkman_classes()
    if seats == 3 and n == 21:
        return kirkman_21_classes()
    m = 1
    while seats**m < n:
        m += 1
    if seats**m == n:
        return affine_classes(seats, m)
    return None


def _design(n: int, seats: int, rounds: int, rng: random.Random) -> list[Groups] | None:
    """``rounds`` rounds of a design, going round it again with the entrants relabelled."""
    classes = design_classes(n, seats)
    if classes is None:
        return None
    out: list[Groups] = []
    label = list(range(n))
    for r in range(rounds):
        if r and r % len(classes) == 0:
            rng.shuffle(label)
        groups = [sorted(label[x] for x in g) for g in classes[r % len(classes)]]
        out.append(groups)
    return out


# ----------------------------------------------------------------------------- search


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


class _Search:
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
        for rnd in past:
            for table in rnd:
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
        self.groups = [[g.copy() for g in rnd] for rnd in groups]
        self.where = [self._where(g) for g in self.groups]
        self.met = [row.copy() for row in self.past_met]
        self.bots = self.past_bots.copy()
        for rnd in self.groups:
            for t, g in enumerate(rnd):
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
        best = [[g.copy() for g in rnd] for rnd in self.groups]
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
                best, best_cost = [[g.copy() for g in rnd] for rnd in self.groups], self.cost
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


# ----------------------------------------------------------------------------- positions


def _held(past: Sequence[Sequence[Sequence[int | None]]], n: int, seats: int) -> list[list[int]]:
    held = [[0] * seats for _ in range(n)]
    for rnd in past:
        for table in rnd:
            for position, x in enumerate(table):
                if x is not None:
                    held[x][position] += 1
    return held


def _positions(
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
    "movement_plan",
    "movement_round",
]
