"""Finished matches for the ratings tests: real records played by bots with the engine,
stored as the games app stores a finished match (Table, Seats, MatchResult)."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from games.bots import make_bot
from games.engine import Match, Options
from games.models import MatchResult, Seat, Table
from ratings.elo import placements as placements_from
from tests.factories import UserFactory


@functools.cache
def played_record(players: int, seed: int) -> tuple[dict[str, Any], tuple[int, ...], int]:
    """A whole match of ``basic`` bots: its record, final scores and winner."""
    match = Match.new(Options.preset("classic").replace(players=players), seed=seed)
    bots = [make_bot("basic", seed=seed * 10 + s) for s in range(players)]
    while match.winner is None:
        seat = match.to_act
        assert seat is not None
        match.apply(bots[seat].decide(match.view(seat)), seat=seat)
    assert match.winner is not None
    return match.to_record(), tuple(match.scores), match.winner


def finished_match(
    seats: Sequence[Any],
    *,
    at: datetime | None = None,
    places: Sequence[int] | None = None,
    resigned: Sequence[int] = (),
    rated: bool = True,
    seed: int = 1,
) -> MatchResult:
    """A finished table whose seats are users, or bot level names (str). ``places``
    overrides the places the record gives (by seat)."""
    n = len(seats)
    record, scores, winner = played_record(n, seed)
    users = [s for s in seats if not isinstance(s, str)]
    creator = users[0] if users else UserFactory()
    finished = at or timezone.now()
    table = Table.objects.create(
        created_by=creator,
        players=n,
        preset="classic",
        options=record["options"],
        rated=rated,
        status="finished",
        started_at=finished - timedelta(minutes=30),
        finished_at=finished,
    )
    for number, who in enumerate(seats):
        Seat.objects.create(
            table=table,
            number=number,
            user=None if isinstance(who, str) else who,
            bot_level=who if isinstance(who, str) else "",
            resigned=number in resigned,
        )
    computed = placements_from(scores, winner=winner, resigned=resigned)
    return MatchResult.objects.create(
        table=table,
        finished_at=finished,
        final_scores=list(scores),
        placements=list(places) if places is not None else computed,
        winner_seat=winner,
        record=record,
        deals=len(record["deals"]),
    )
