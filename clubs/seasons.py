"""A season's table: pure arithmetic over each event's places (the standard library only).

Each counted event gives a player the points of his place (``points[place - 1]``, nothing
past the list's end; a disqualified player, or one without a place, gets nothing there).
Only his ``best`` results count (all when ``best`` is ``None``). Ties, in this order
(docs/clubs.md):

1. more counted points;
2. countback: more first places, then more second places, and so on (over every event he
   played, counted or not);
3. more events played;
4. still equal: the same rank, shared (listed by user id, for a stable order).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

LAST = 2**31  # after every place: the end of a player's list of places


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


def table(
    results: Mapping[int, Sequence[tuple[int, int | None]]],
    *,
    points: Sequence[int],
    best: int | None = None,
) -> list[Line]:
    """``results``: each event id → its (user id, place or ``None``) pairs."""
    lines: dict[int, Line] = {}
    for event_id in sorted(results):
        for user_id, place in results[event_id]:
            line = lines.setdefault(user_id, Line(user_id))
            line.played += 1
            got = points[place - 1] if place is not None and 0 < place <= len(points) else 0
            line.points[event_id] = got
            if place is not None:
                line.places.append(place)
    for line in lines.values():
        ordered = sorted(line.points.items(), key=lambda item: (-item[1], item[0]))
        kept = ordered if best is None else ordered[:best]
        line.counted = {event_id for event_id, _ in kept}
        line.total = sum(p for _, p in kept)
    keys = {line.user_id: line.key() for line in lines.values()}
    rows = sorted(lines.values(), key=lambda line: (keys[line.user_id], line.user_id))
    for i, line in enumerate(rows):
        same = i > 0 and keys[rows[i - 1].user_id] == keys[line.user_id]
        line.rank = rows[i - 1].rank if same else i + 1
    return rows
