"""Who sits where: Swiss, arena and knockout seating at tables of 2, 3 or 4.

Pure Python (no Django): the services feed it plain numbers and store what it returns.

Vocabulary
----------
- A *table* is returned as a tuple in seat-number order: ``table[0]`` sits at seat 0, and so
  on. ``None`` is a seat played by a bot. Seat 0 deals the first deal of the match, seat 1
  (left of the dealer) sits on the forced hundred, seat 2 speaks first (docs/spec.md §2; with two
  players seat 1 opens, §4; with four, seat 0 rests in the first deal, §5). The services
  start every tournament match with seat 0 as the first dealer, so balancing the seat
  numbers balances who deals first and who bids first.
- A *history* is every table played so far in the event, in the same form.
- A field that does not divide by the table size gets ``tables * seats - players`` bots
  (at most ``seats - 1``), spread one a table over the tables at the bottom of the order
  (:func:`table_plan`). In the standings a bot is never listed, so it never takes a place.

Swiss (:func:`swiss_seating`) minimises, in this order of importance (the weights are
powers of ten far enough apart that each tier outweighs everything below it at two
tables, for events of up to a few dozen rounds):

1. pairs of players seated together who have met before (``REPEAT``);
2. further meetings of such a pair (``AGAIN``), and a bot table for a player who has
   already had one (``BOT_AGAIN``, like chess's "no second bye");
3. the spread of standings points at a table (``SPREAD`` per point);
4. seat numbers the players at a table cannot all balance (``SEAT`` per unit of
   :func:`seat_cost`): like colours in chess, two players who both need to deal first
   are better at different tables;
5. the spread of standings places at a table (``RANK`` per place).

except that a seat that would leave a player's seat counts three or more apart costs
more than any spread of points (``UNEVEN``): as in chess, where a third colour in a row
is avoided before score groups are kept together.

Small fields are solved exactly by enumerating every seating; larger ones start from a
greedy seating from the top of the standings (MahjongPantheon's Swiss seating) and improve
it by swapping players between tables until no swap that involves a table with a repeat
(a second bot table, a seat three apart) lowers the cost, restarting from small random
changes while repeats remain; then neighbouring tables swap players to narrow spreads
and balance seats. The result depends only on the input and the seed, unless the time
budget cuts the search short.

Seat numbers within each table are then chosen as an assignment problem (Tabbycat's
British Parliamentary positions): a player's cost for a seat grows steeply with how often
he has sat there beyond his least used seat (:func:`seat_cost`); every permutation of the
table is tried (at most 4! = 24).
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

PlayerId = int
TableSeats = tuple[PlayerId | None, ...]
"""One table in seat-number order; ``None`` is a bot."""

SEATS = (2, 3, 4)

REPEAT = 10**11
AGAIN = 10**8
BOT_AGAIN = 10**8
SPREAD = 10**4
SEAT = 100
UNEVEN = 10**4
RANK = 1

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


class PairingError(ValueError):
    """The input cannot be seated (duplicate players, a bad table size, ...)."""


# ----------------------------------------------------------------------------- input


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player in a Swiss round: the list of entrants is in standings order, best first."""

    player: PlayerId
    points: int = 0


@dataclass(frozen=True, slots=True)
class Waiting:
    """A free player in an arena: ``since`` is when he became free, in seconds."""

    player: PlayerId
    rating: float
    since: float


class History:
    """What the tables played so far tell the seating: who met whom, who sat where.

    Built from the past tables in seat order (``None`` for bots), oldest first.
    """

    __slots__ = ("_bot_tables", "_last", "_met", "_seat_counts", "tables")

    def __init__(self, tables: Iterable[Sequence[PlayerId | None]] = ()) -> None:
        self.tables = 0
        self._met: dict[PlayerId, Counter[PlayerId]] = {}
        self._seat_counts: dict[PlayerId, list[int]] = {}
        self._bot_tables: Counter[PlayerId] = Counter()
        self._last: dict[PlayerId, frozenset[PlayerId]] = {}
        for table in tables:
            self.add(table)

    def add(self, table: Sequence[PlayerId | None]) -> None:
        """Record one more table (later tables are more recent)."""
        humans = [p for p in table if p is not None]
        if len(set(humans)) != len(humans):
            raise PairingError(f"a player sits twice at one table: {tuple(table)!r}")
        self.tables += 1
        has_bot = len(humans) < len(table)
        for seat, player in enumerate(table):
            if player is None:
                continue
            counts = self._seat_counts.setdefault(player, [0, 0, 0, 0])
            counts[seat] += 1
            others = [q for q in humans if q != player]
            self._met.setdefault(player, Counter()).update(others)
            self._last[player] = frozenset(others)
            if has_bot:
                self._bot_tables[player] += 1

    def met(self, a: PlayerId, b: PlayerId) -> int:
        """How many times ``a`` and ``b`` sat at one table."""
        return self._met.get(a, Counter())[b]

    def opponents(self, player: PlayerId) -> Mapping[PlayerId, int]:
        return self._met.get(player, Counter())

    def last_opponents(self, player: PlayerId) -> frozenset[PlayerId]:
        """The humans at the player's most recent table."""
        return self._last.get(player, frozenset())

    def seat_counts(self, player: PlayerId, seats: int) -> list[int]:
        """How often the player sat at each seat number ``0..seats-1``."""
        return list(self._seat_counts.get(player, [0, 0, 0, 0])[:seats])

    def bot_tables(self, player: PlayerId) -> int:
        """How many of the player's tables had a bot."""
        return self._bot_tables[player]

    def repeats(self) -> int:
        """Meetings of a pair beyond its first: the figure the Swiss seating minimises."""
        return sum(c - 1 for counts in self._met.values() for c in counts.values() if c > 1) // 2


# ----------------------------------------------------------------------------- table plan


def _check_seats(seats: int) -> None:
    if seats not in SEATS:
        raise PairingError(f"tables seat 2, 3 or 4 players, not {seats!r}")


def table_plan(players: int, seats: int) -> list[int]:
    """Humans per table, top table first, for ``players`` at tables of ``seats``.

    ``ceil(players / seats)`` tables, their sizes as even as possible: the ``tables *
    seats - players`` empty seats (at most ``seats - 1``) go to bots, one a table at the
    bottom tables. A table gets a second bot only in tiny fields: one player at tables
    of 3; one, two or five at tables of 4.

    >>> table_plan(10, 3)
    [3, 3, 2, 2]
    """
    _check_seats(seats)
    if players < 1:
        raise PairingError("nobody to seat")
    tables = -(-players // seats)
    base, extra = divmod(players, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def bots_needed(players: int, seats: int) -> int:
    """How many bots a round of ``players`` at tables of ``seats`` needs."""
    return sum(seats - h for h in table_plan(players, seats))


# ----------------------------------------------------------------------------- seat numbers


def seat_cost(counts: Sequence[int], seat: int) -> int:
    """The cost of one more sitting at ``seat`` for a player with these seat counts.

    0 at a least used seat; 1 one above it (his seats then differ by two); a seat used
    two or more times above the least used costs ``UNEVEN`` times the square, so that
    it is chosen only when everything else costs more.
    """
    over = counts[seat] - min(counts)
    return over if over < 2 else UNEVEN * over * over


def assign_seats(
    players: Sequence[PlayerId | None],
    history: History,
    seats: int,
    rng: random.Random | None = None,
) -> TableSeats:
    """Order one table's players (``None`` = bot) into seat numbers with the least imbalance.

    Tries every permutation; among equally good ones the first in an order shuffled by
    ``rng`` wins (or the first in lexicographic order without one).
    """
    if len(players) != seats:
        raise PairingError(f"a table of {seats} needs {seats} entries, got {len(players)}")
    counts = [history.seat_counts(p, seats) if p is not None else None for p in players]
    orders = list(itertools.permutations(range(seats)))
    if rng is not None:
        rng.shuffle(orders)
    best: tuple[int, ...] = orders[0]
    best_cost = math.inf
    for order in orders:  # order[i] = seat number of players[i]
        cost = 0
        for i, c in enumerate(counts):
            if c is not None:
                cost += seat_cost(c, order[i])
        if cost < best_cost:
            best, best_cost = order, cost
            if cost == 0:
                break
    table: list[PlayerId | None] = [None] * seats
    for i, seat in enumerate(best):
        table[seat] = players[i]
    return tuple(table)


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
    _check_seats(seats)
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


# ----------------------------------------------------------------------------- arena


def arena_seating(
    waiting: Sequence[Waiting],
    *,
    seats: int = 3,
    now: float,
    history: History | None = None,
    base_range: float = 100.0,
    widen_per_second: float = 5.0,
    rematch_after: float = 60.0,
    bot_after: float | None = None,
    seed: int = 0,
) -> list[TableSeats]:
    """Seat free arena players at every table that can be filled now (lichess's arena,
    at tables of several players).

    The longest waiting player goes first: his table takes the free players nearest to
    him in rating, if the table's rating spread stays within his range, ``base_range +
    widen_per_second * seconds waited``. Players who sat together at their last table are
    not seated together again until both have waited ``rematch_after`` seconds. With
    ``bot_after`` set, a player who has waited that long and still has no table is seated
    with whoever fits and bots in the empty seats. Players left over keep waiting.
    """
    _check_seats(seats)
    history = history or History()
    ids = [w.player for w in waiting]
    if len(set(ids)) != len(ids):
        raise PairingError("a player is listed twice")
    rng = random.Random(seed)
    queue = sorted(waiting, key=lambda w: (w.since, w.player))
    free = {w.player: w for w in queue}
    tables: list[TableSeats] = []

    def may_meet(a: Waiting, b: Waiting) -> bool:
        if b.player not in history.last_opponents(a.player) and (
            a.player not in history.last_opponents(b.player)
        ):
            return True
        return min(now - a.since, now - b.since) >= rematch_after

    for first in queue:
        if first.player not in free:
            continue
        waited = now - first.since
        allowed = base_range + widen_per_second * max(waited, 0.0)
        others = sorted(
            (w for w in free.values() if w.player != first.player),
            key=lambda w: (abs(w.rating - first.rating), w.since, w.player),
        )
        group = [first]
        for w in others:
            if len(group) == seats:
                break
            ratings = [g.rating for g in group] + [w.rating]
            if max(ratings) - min(ratings) > allowed:
                continue
            if all(may_meet(w, g) for g in group):
                group.append(w)
        if len(group) < seats and not (bot_after is not None and waited >= bot_after):
            continue
        for g in group:
            del free[g.player]
        players: list[PlayerId | None] = [g.player for g in group]
        players += [None] * (seats - len(group))
        tables.append(assign_seats(players, history, seats, rng))
    return tables


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
    _check_seats(seats)
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
    _check_seats(seats)
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


# ----------------------------------------------------------------------------- checks


def check_round(tables: Collection[TableSeats], players: Iterable[PlayerId], seats: int) -> None:
    """Raise :class:`PairingError` unless every player sits exactly once, at tables of
    ``seats``. The services call it before they store a round."""
    seen: Counter[PlayerId] = Counter()
    for table in tables:
        if len(table) != seats:
            raise PairingError(f"a table of {len(table)}, expected {seats}")
        seen.update(p for p in table if p is not None)
    expected = Counter(players)
    if seen != expected:
        missing = sorted((expected - seen).elements())
        extra = sorted((seen - expected).elements())
        raise PairingError(f"seating mismatch: missing {missing}, extra or twice {extra}")
