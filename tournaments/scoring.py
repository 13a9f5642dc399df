"""Standings from finished tables: placement points and tie-breaks. Pure Python.

A finished table gives every seat a place (1 = winner; equal scores share a place; bots
take places like anyone at the table). Each human scores the tournament's placement
points for his place (e.g. 3/1/0); a shared place scores that place's points for each.

The standings order players by points, then by the tie-breaks, in this order:

1. opponents' points: the sum, over every table a player sat at, of the points of the
   humans he met there (the "Buchholz" of chess; stronger opposition ranks higher);
2. total game score: the sum of his final scores in the game;
3. head-to-head: among the players still tied, how often he finished above one of them
   at a shared table, less how often below.

Players who are still tied share the rank. Knockout standings put first those who went
furthest, then each round's players by their place at the table. Bots are never listed;
disqualified players are listed last without a rank.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field

from games import placing

PlayerId = int

DEFAULT_POINTS: dict[int, tuple[int, ...]] = {2: (2, 0), 3: (3, 1, 0), 4: (3, 2, 1, 0)}


@dataclass(frozen=True, slots=True)
class SeatResult:
    player: PlayerId | None  # None: a bot
    place: int
    score: int = 0


@dataclass(frozen=True, slots=True)
class TableResult:
    round: int
    seats: tuple[SeatResult, ...]


@dataclass(slots=True)
class Row:
    player: PlayerId
    rank: int | None = None
    points: int = 0
    matches: int = 0
    wins: int = 0
    opponents_points: int = 0
    game_score: int = 0
    head_to_head: int = 0
    stage: int = 0  # knockout: the last round played
    stage_place: int = 0  # knockout: the place at the table in that round
    disqualified: bool = False
    opponents: list[PlayerId] = field(default_factory=list, repr=False)


def placement_points(place: int, points: Sequence[int]) -> int:
    """The points for ``place`` (1-based); places beyond the list score nothing."""
    return points[place - 1] if 1 <= place <= len(points) else 0


def places_by_score(scores: Sequence[int], last: Collection[int] = ()) -> list[int]:
    """Places by seat from the scores, highest first, equal scores sharing a place; the
    seats in ``last`` (resigned) come after everyone else (the games app's rule)."""
    return placing.places_by_score(scores, last=last)


def standings(
    tables: Iterable[TableResult],
    *,
    points: Sequence[int],
    players: Iterable[PlayerId] = (),
    disqualified: Collection[PlayerId] = (),
    knockout: bool = False,
) -> list[Row]:
    """The standings of everyone in ``players`` or at a table, best first."""
    rows: dict[PlayerId, Row] = {p: Row(p) for p in players}
    tables = list(tables)
    for table in tables:
        humans = [s for s in table.seats if s.player is not None]
        for s in humans:
            assert s.player is not None
            row = rows.setdefault(s.player, Row(s.player))
            row.points += placement_points(s.place, points)
            row.matches += 1
            row.wins += s.place == 1
            row.game_score += s.score
            row.opponents.extend(o.player for o in humans if o.player not in (None, s.player))
            if table.round > row.stage or (table.round == row.stage and s.place < row.stage_place):
                row.stage, row.stage_place = table.round, s.place
    for row in rows.values():
        row.opponents_points = sum(rows[o].points for o in row.opponents)
        row.disqualified = row.player in disqualified

    def key(row: Row) -> tuple[int, ...]:
        ahead = (-row.stage, row.stage_place) if knockout else ()
        return (*ahead, -row.points, -row.opponents_points, -row.game_score)

    ranked = sorted((r for r in rows.values() if not r.disqualified), key=key)
    out: list[Row] = []
    for _, group in itertools.groupby(ranked, key=key):
        tied = list(group)
        if len(tied) > 1:
            _head_to_head(tied, tables)
            tied.sort(key=lambda r: (-r.head_to_head, r.player))
        out.extend(tied)
    for position, row in enumerate(out):
        previous = out[position - 1] if position else None
        same = previous is not None and (key(previous), previous.head_to_head) == (
            key(row),
            row.head_to_head,
        )
        row.rank = previous.rank if same and previous is not None else position + 1
    out.extend(sorted((r for r in rows.values() if r.disqualified), key=lambda r: r.player))
    return out


def _head_to_head(tied: list[Row], tables: Sequence[TableResult]) -> None:
    group = {r.player: r for r in tied}
    balance: dict[PlayerId, int] = defaultdict(int)
    for table in tables:
        present = [s for s in table.seats if s.player in group]
        for a, b in itertools.combinations(present, 2):
            assert a.player is not None and b.player is not None
            if a.place < b.place:
                balance[a.player] += 1
                balance[b.player] -= 1
            elif b.place < a.place:
                balance[b.player] += 1
                balance[a.player] -= 1
    for player, row in group.items():
        row.head_to_head = balance[player]
