"""Building and playing live tables in tests, through the services only."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.test import TestCase

from games import scheduler, services
from games import state as table_state
from games.bots import make_bot
from games.models import Table
from tests.factories import UserFactory


@contextmanager
def committed() -> Iterator[None]:
    """Run the on-commit hooks (broadcasts, scheduling) of what happens inside, as a
    real commit would, in a test that runs inside one rolled-back transaction."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        yield


def open_table(
    *, humans: int = 1, bots: int = 2, level: str = "basic", **options: Any
) -> tuple[Table, list[Any]]:
    users = [UserFactory() for _ in range(humans)]
    players = options.pop("players", humans + bots)
    table = services.table_create(user=users[0], players=players, **options)
    for user in users[1:]:
        services.table_join(table=table, user=user, invite_code=table.invite_code)
    for _ in range(bots):
        services.seat_fill_with_bot(table=table, level=level, by=users[0])
    return table, users


def started_table(**kwargs: Any) -> tuple[Table, list[Any]]:
    table, users = open_table(**kwargs)
    with committed():
        services.table_start(table=table, user=users[0])
    table.refresh_from_db()
    return table, users


def current(table: Table) -> table_state.TableState:
    table.refresh_from_db()
    with table_state.locked(table) as state:
        return state


def human_turn(table: Table, *, rng: random.Random | None = None) -> bool:
    """Play one turn for the person to act (a basic bot's choice, or a random legal
    action with ``rng``); False when no person is to act."""
    state = current(table)
    seat = state.match.to_act
    if seat is None:
        return False
    seats = {s.number: s for s in table.seats.all()}
    if seats[seat].played_by_bot:
        return False
    view = state.match.view(seat)
    action = rng.choice(view.legal) if rng else make_bot("basic", seed=table.version).decide(view)
    with committed():
        services.action_submit(
            table_id=table.pk, seat=seat, action=action, expected_version=table.version
        )
    return True


def play_to_end(table: Table, *, rng: random.Random | None = None, limit: int = 20_000) -> Table:
    """Run bot turns and play the people's turns until the match ends."""
    for _ in range(limit):
        with committed():
            ran = scheduler.run_pending(limit=1)
        if ran:
            continue
        if not human_turn(table, rng=rng):
            table.refresh_from_db()
            if table.status != Table.Status.PLAYING:
                return table
            raise AssertionError("nobody can move at a playing table")
    raise AssertionError("the match did not end")
