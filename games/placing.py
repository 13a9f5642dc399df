"""Places at a table from its final scores: pure, shared by the games app (a match's
result) and tournaments (a table cut by the clock, ranked for the round)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from games.engine.match import places


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
    everyone else, ordered among themselves the same way. The engine's ranking
    (:func:`games.engine.match.places`), the one rule for places."""
    return places(scores, winner, last=last)
