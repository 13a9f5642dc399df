"""Duplicate events: board-by-board comparison of everyone who held the same cards
(docs/duplicate.md). Pure Python: the services feed it plain numbers.

Vocabulary
----------
- A *board* is the k-th counted deal (0-based) of a round's matches. Every table of the
  round deals its j-th dealing from the round's j-th seed (docs/fair-dealing.md,
  "Duplicate rounds"), with the same dealer position each board, so a board holds the
  same cards at every table whose deals so far had no redeal. A redeal takes the next
  seed of the sequence, so after one that table's later boards hold other cards: its
  board k was dealt from seed ``k + redeals``. The *dealing* of a board result says which.
- A *position* is a seat counted from the match's first dealer (0 deals first). On a
  board, the entrants who held the same dealing at the same position held the same
  cards: they form a *group* and are compared by the points the deal gave them (the
  deal's own delta, docs/spec.md §2.8, before the barrel and bolts; §3.1).
- *Matchpoints*: in a group of n results, a result scores 2 for each other result it
  beats and 1 for each it ties, out of a top of 2 (n − 1); its *percent* is matchpoints
  ÷ top × 100. A result alone in its group (its table diverged, or nobody else had that
  position) is not compared: it scores 50% and is marked alone.
- A board the clock or a bot played for an absent person (``played_for``) scores 0
  matchpoints and 0% for him, alone or not; the others in its group are compared with
  it as usual.
- Bots are compared like anyone (``bots="compare"``) or left out of the groups and the
  totals (``bots="exclude"``); either way a bot is never ranked in the standings.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

EntrantId = int
BOTS = ("compare", "exclude")


@dataclass(frozen=True, slots=True)
class BoardResult:
    """What one seat got from one board at one table."""

    round: int
    board: int
    table: int
    position: int
    entrant: EntrantId | None  # None: a bot
    points: int  # the deal's own points for this seat (its delta)
    dealing: int  # the round's sequence index the table dealt this board from
    declarer: bool = False
    contract: int | None = None
    outcome: str = ""  # made, failed, written_off: the deal's
    seat: int | None = None  # the table's seat number (the ratings' key), when known
    # The clock or a bot chose for the person in this seat on this board (he was away or
    # had resigned): his own result counts as his worst; the others' comparison with it
    # stands (docs/duplicate.md, "Boards played for an absent player").
    played_for: bool = False


@dataclass(frozen=True, slots=True)
class BoardScore:
    result: BoardResult
    matchpoints: int
    top: int  # 2 × (the group's size − 1); 0 when alone
    percent: float
    group: int  # how many results were compared (this one included)
    average: float  # the group's mean points ("the room averaged …")

    @property
    def alone(self) -> bool:
        return self.group == 1


def board_scores(results: Iterable[BoardResult], *, bots: str = "compare") -> list[BoardScore]:
    """Matchpoints for every result (bots' left out with ``bots="exclude"``), grouped by
    round, board, dealing and position; in the order given."""
    if bots not in BOTS:
        raise ValueError(f"bots must be one of {BOTS}")
    kept = [r for r in results if bots == "compare" or r.entrant is not None]
    groups: dict[tuple[int, int, int, int], list[BoardResult]] = defaultdict(list)
    for r in kept:
        groups[(r.round, r.board, r.dealing, r.position)].append(r)
    out = []
    for r in kept:
        group = groups[(r.round, r.board, r.dealing, r.position)]
        mp = sum(2 if r.points > o.points else 1 if r.points == o.points else 0 for o in group)
        mp -= 1  # itself, a tie
        top = 2 * (len(group) - 1)
        percent = 100.0 * mp / top if top else 50.0
        if r.played_for and r.entrant is not None:
            mp, percent = 0, 0.0  # nothing above what he played himself
        average = sum(o.points for o in group) / len(group)
        out.append(BoardScore(r, mp, top, percent, len(group), average))
    return out


@dataclass(slots=True)
class DuplicateRow:
    entrant: EntrantId
    rank: int | None = None
    total: float = 0.0  # the sum of board percentages
    boards: int = 0
    matchpoints: int = 0
    top: int = 0

    @property
    def percent(self) -> float:
        """Matchpoints over the tops of the boards compared (lone boards at 50%)."""
        return 100.0 * self.matchpoints / self.top if self.top else 50.0


def standings(scores: Iterable[BoardScore]) -> list[DuplicateRow]:
    """Entrants by the sum of their board percentages, then by matchpoints over tops;
    equal on both share the rank. Bots are never listed."""
    rows: dict[EntrantId, DuplicateRow] = {}
    for s in scores:
        entrant = s.result.entrant
        if entrant is None:
            continue
        row = rows.setdefault(entrant, DuplicateRow(entrant))
        row.total += s.percent
        row.boards += 1
        row.matchpoints += s.matchpoints
        row.top += s.top
    ordered = sorted(rows.values(), key=lambda r: (-round(r.total, 9), -r.percent, r.entrant))
    for i, row in enumerate(ordered):
        prev = ordered[i - 1] if i else None
        tied = prev is not None and (round(prev.total, 9), prev.percent) == (
            round(row.total, 9),
            row.percent,
        )
        row.rank = prev.rank if tied and prev is not None else i + 1
    return ordered


def rotate_seats(
    table: Sequence[EntrantId | None], held: dict[EntrantId, list[int]]
) -> tuple[EntrantId | None, ...]:
    """The table's entrants by position (0 deals first) so that each holds the positions
    he has held least: the arrangement with the fewest earlier holdings of the positions
    given, ties kept in the order given. ``held[e][p]`` counts e's rounds at position p.
    Over as many rounds as seats every entrant then holds each position once, when the
    movement allows (docs/duplicate.md)."""
    k = len(table)

    def cost(order: tuple[EntrantId | None, ...]) -> int:
        return sum(held.get(e, [0] * k)[p] ** 2 for p, e in enumerate(order) if e is not None)

    return min(itertools.permutations(table), key=cost)


def positions_held(
    tables: Iterable[Sequence[EntrantId | None]], seats: int
) -> dict[EntrantId, list[int]]:
    """How often each entrant has sat at each position, from earlier rounds' tables (each
    by position)."""
    held: dict[EntrantId, list[int]] = defaultdict(lambda: [0] * seats)
    for table in tables:
        for p, e in enumerate(table):
            if e is not None:
                held[e][p] += 1
    return dict(held)


__all__ = [
    "BOTS",
    "BoardResult",
    "BoardScore",
    "DuplicateRow",
    "board_scores",
    "positions_held",
    "rotate_seats",
    "standings",
]
