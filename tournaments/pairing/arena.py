"""Arena seating: whoever waits sits down at the next free table. Pure Python."""

from __future__ import annotations

import random
from collections.abc import Sequence

from tournaments.pairing.common import (
    History,
    PairingError,
    PlayerId,
    TableSeats,
    Waiting,
    assign_seats,
    check_seats,
)

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
    check_seats(seats)
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
