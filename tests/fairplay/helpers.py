"""Records where the fair-play answer is known: matches of basic bots with planted
behaviour (the planted players of bench/fair_play.py), and finished rated tables."""

from __future__ import annotations

import random
from typing import Any

from bench.fair_play import Policy, engine_user, feeder, honest, play_match, soft_play
from games.bots import Budget, make_bot
from games.bots.strong import MasterBot


def basic(seed: int) -> Policy:
    return honest(make_bot("basic", seed=seed))


def record_of(kind: str, *, seed: int, deals: int = 12) -> dict[str, Any]:
    """A match where seats 0 and 1 are ``kind`` ("honest", "soft-play": each lets the
    other's bids stand; "feeder": seat 0 feeds seat 1 every point it can; "engine": seat 0
    plays master's every choice) and seat 2 is an honest basic bot."""
    seats = [basic(seed), basic(seed + 1), basic(seed + 2)]
    if kind == "soft-play":
        seats[0], seats[1] = soft_play(seats[0], 1), soft_play(seats[1], 0)
    elif kind == "feeder":
        seats[0] = feeder(seats[0], 1)
    elif kind == "engine":
        master = MasterBot(seed, Budget(seconds=None, samples=12))
        seats[0] = engine_user(seats[0], master, 1.0, random.Random(seed))
    return play_match(seats, seed=seed, deals=deals)


def rated_table(record: dict[str, Any], users: list[Any]) -> Any:
    """A finished rated table of ``users`` (seats 0…) and bots whose result holds
    ``record``, written as the services leave one."""
    from django.utils import timezone

    from games.models import MatchResult, Seat, Table

    table = Table.objects.create(
        created_by=users[0], players=3, preset="simple", options=record["options"],
        status="finished", first_dealer=record["first_dealer"], version=1, rated=True,
        started_at=timezone.now(), finished_at=timezone.now(),
    )  # fmt: skip
    for number in range(3):
        if number < len(users):
            Seat.objects.create(table=table, number=number, user=users[number])
        else:
            Seat.objects.create(table=table, number=number, bot_level="basic")
    MatchResult.objects.create(
        table=table, finished_at=timezone.now(), final_scores=[0, 0, 0], winner_seat=None,
        placements=[1, 2, 3], deals=len(record["deals"]), record=record,
    )  # fmt: skip
    return table
