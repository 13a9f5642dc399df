"""Records to analyse: matches played by bots, cut where a test needs them."""

from __future__ import annotations

import copy
from typing import Any

from games.bots import make_bot
from games.engine import Match, Options


def bot_record(seed: int, deals: int, level: str = "basic", players: int = 3) -> dict[str, Any]:
    """The record of the first ``deals`` deals of a match of ``level`` bots."""
    match = Match.new(Options(players=players), seed=seed)
    bots = [make_bot(level, seed=seed + s) for s in range(players)]
    while match.winner is None and len(match.results) < deals:
        seat = match.to_act
        assert seat is not None
        match.apply(bots[seat].decide(match.view(seat)), seat=seat)
    record = match.to_record()
    record["deals"] = record["deals"][:deals]
    return record


def cut(record: dict[str, Any], deal: int, action: int) -> dict[str, Any]:
    """``record`` up to and including action ``action`` of deal ``deal``."""
    out = copy.deepcopy(record)
    out["deals"] = out["deals"][: deal + 1]
    out["deals"][deal]["actions"] = out["deals"][deal]["actions"][: action + 1]
    return out


def finished_table(
    *, deals: int = 2, people: int = 1, status: str = "finished", users: list[Any] | None = None
) -> Any:
    """A table of ``people`` persons and bots whose match (its first ``deals`` deals of
    basic bots, as a record) is over, written directly as the services leave one."""
    from django.utils import timezone

    from games.models import MatchResult, Seat, Table
    from tests.factories import UserFactory

    record = bot_record(seed=7, deals=deals)
    users = users if users is not None else [UserFactory() for _ in range(people)]
    people = len(users)
    table = Table.objects.create(
        created_by=users[0] if users else None, players=3, preset="simple",
        options=record["options"], status=status, first_dealer=record["first_dealer"],
        version=1, started_at=timezone.now(),
        finished_at=timezone.now() if status == "finished" else None,
    )  # fmt: skip
    for number in range(3):
        if number < people:
            Seat.objects.create(table=table, number=number, user=users[number])
        else:
            Seat.objects.create(table=table, number=number, bot_level="basic")
    if status == "finished":
        MatchResult.objects.create(
            table=table, finished_at=timezone.now(), final_scores=[0, 0, 0], winner_seat=None,
            placements=[1, 2, 3], deals=deals, record=record,
        )  # fmt: skip
    return table


def played_table(*, deals: int, user: Any) -> Any:
    """A match ``user`` played against two basic bots through the services (the simple
    preset without the write-off: no redeal, so every deal is played out), cut after ``deals`` deals as a round's
    time limit cuts one: a finished table as the service
    leaves it (its dealings, its log, its result), which its pages and sockets open.
    Bots and the person's turns (a basic bot's choice) run here, in this process."""
    from games import services
    from games.models import Table
    from tests.games.helpers import committed, play_to_end

    table = services.table_create(
        user=user, players=3, preset="simple", options={"write_off": False}, move_seconds=600
    )
    for _ in range(2):
        services.seat_fill_with_bot(table=table, level="basic", by=user)
    with committed():
        services.table_start(table=table, user=user)
    Table.objects.filter(pk=table.pk).update(finish_after_deals=deals, finishing_by="time")
    return play_to_end(table, rng=None)
