"""Places at a table from its final scores: pure, shared by the games app (a match's
result) and tournaments (a table cut by the clock, ranked for the round)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Amendment:
    """An organiser's correction of a finished match's places (by seat, 1 = first), with
    his reason: what every page shows instead of the places the scores gave."""

    places: tuple[int, ...]
    reason: str


def places_by_score(
    scores: Sequence[int], *, winner: int | None = None, last: Collection[int] = ()
) -> list[int]:
    """Places by seat (1 = first): the ``winner`` first, the rest by score, highest
    first, equal scores sharing a place; the seats in ``last`` (resigned) come after
    everyone else, ordered among themselves the same way."""

    def key(seat: int) -> tuple[int, int, int]:
        return (1 if seat in last else 0, 0 if seat == winner else 1, -scores[seat])

    order = sorted(range(len(scores)), key=key)
    places = [0] * len(scores)
    for position, seat in enumerate(order):
        if position and key(order[position - 1]) == key(seat):
            places[seat] = places[order[position - 1]]
        else:
            places[seat] = position + 1
    return places
