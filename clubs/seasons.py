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

    def key(self, depth: int) -> tuple[int, ...]:
        countback = tuple(self.places.count(p) for p in range(1, depth + 1))
        return (self.total, *countback, self.played)


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
    depth = max((max(line.places, default=0) for line in lines.values()), default=0)
    rows = sorted(
        lines.values(), key=lambda line: (tuple(-k for k in line.key(depth)), line.user_id)
    )
    for i, line in enumerate(rows):
        same = i > 0 and rows[i - 1].key(depth) == line.key(depth)
        line.rank = rows[i - 1].rank if same else i + 1
    return rows
