"""A season's table: pure arithmetic over each event's results (the standard library only).

Each counted event gives a player points by the season's scheme (docs/clubs.md):

- ``table`` — placement points by table place: what his places at his tables earned him
  over the event's rounds (``Result.earned``: the event's own placement points, e.g. 3/1/0
  at a table of three; a duplicate event's are its matchpoints);
- ``event`` — by event place: one point for each player ranked below him in the event, and
  one more (of 12 ranked players the winner scores 12, the last 1; a shared place scores
  what its first place would);
- ``list`` — a custom list by event place: ``points[place - 1]``, nothing past its end.

A disqualified player, or one without a place, scores nothing in that event whatever the
scheme. Only his ``best`` results count (all when ``best`` is ``None``); of two results
worth the same, the earlier event's counts. Ties, in this order:

1. more counted points;
2. countback: more first places, then more second places, and so on (event places, over
   every event he played, counted or not);
3. more events played;
4. still equal: the same rank, shared (listed by user id, for a stable order).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, NamedTuple

LAST = 2**31  # after every place: the end of a player's list of places
Scheme = Literal["table", "event", "list"]
SCHEMES: tuple[Scheme, ...] = ("table", "event", "list")


class Result(NamedTuple):
    """One player's result in one event: his final place in it (``None``: disqualified or
    unranked) and, for the ``table`` scheme, what his tables earned him."""

    user_id: int
    place: int | None
    earned: int = 0


@dataclass
class Line:
    user_id: int
    rank: int = 0
    total: int = 0
    played: int = 0
    # Each event's points, by event id; the counted ones named in ``counted``.
    points: dict[int, int] = field(default_factory=dict)
    counted: set[int] = field(default_factory=set)
    places: list[int] = field(default_factory=list)

    def key(self) -> tuple[int, tuple[int, ...], int]:
        """Better first. The countback (more firsts, then more seconds…) is the places sorted
        best first, compared item by item, a list that ends counting as worse than any place:
        the same order as comparing the counts of each place, without a count per place."""
        return (-self.total, (*sorted(self.places), LAST), -self.played)


def event_points(
    results: Sequence[Result | tuple[int, int | None]],
    *,
    scheme: Scheme,
    points: Sequence[int] = (),
) -> list[int]:
    """Each result's season points from one event, in the order given."""
    if scheme not in SCHEMES:
        raise ValueError(f"unknown scheme {scheme!r}")
    if scheme == "list":
        n = len(points)
        return [points[r[1] - 1] if r[1] is not None and 0 < r[1] <= n else 0 for r in results]
    if scheme == "event":
        ranked = sum(1 for r in results if r[1] is not None)
        return [max(ranked - r[1] + 1, 0) if r[1] is not None and r[1] > 0 else 0 for r in results]
    return [max(r[2], 0) if r[1] is not None and r[1] > 0 and len(r) > 2 else 0 for r in results]


def table(
    results: Mapping[int, Sequence[Result | tuple[int, int | None]]],
    *,
    points: Sequence[int] = (),
    best: int | None = None,
    scheme: Scheme = "list",
) -> list[Line]:
    """``results``: each event id → its results (``Result``, or (user id, place) pairs)."""
    lines: dict[int, Line] = {}
    for event_id in sorted(results):
        rows = results[event_id]
        for r, got in zip(rows, event_points(rows, scheme=scheme, points=points), strict=True):
            user_id, place = r[0], r[1]
            line = lines.get(user_id)
            if line is None:
                line = lines[user_id] = Line(user_id)
            line.played += 1
            line.points[event_id] = got
            if place is not None:
                line.places.append(place)
    for line in lines.values():
        ordered = sorted(line.points.items(), key=lambda item: (-item[1], item[0]))
        kept = ordered if best is None else ordered[:best]
        line.counted = {event_id for event_id, _ in kept}
        line.total = sum(p for _, p in kept)
    keys = {line.user_id: line.key() for line in lines.values()}
    rows_ = sorted(lines.values(), key=lambda line: (keys[line.user_id], line.user_id))
    for i, line in enumerate(rows_):
        same = i > 0 and keys[rows_[i - 1].user_id] == keys[line.user_id]
        line.rank = rows_[i - 1].rank if same else i + 1
    return rows_
