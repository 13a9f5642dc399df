"""What every seating shares: the input (entrants, waiting players, the history), the
table plan with its bots, seat numbers within a table, the weights of the Swiss costs
(seat numbers are weighed with them too) and the check of a round. Pure Python."""

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


def check_seats(seats: int) -> None:
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
    check_seats(seats)
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
