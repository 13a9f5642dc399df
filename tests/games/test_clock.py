"""The move clock: deadlines live in the database and the sweep enforces them."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import scheduler, services
from games.engine import Pass
from games.models import Seat, Table, TableAction
from tests.games.helpers import committed, current, started_table

pytestmark = pytest.mark.django_db


def people_table() -> tuple[Table, int]:
    table, _ = started_table(humans=3, bots=0)
    return table, current(table).match.to_act  # type: ignore[return-value]


def expire(table: Table) -> int:
    """Let the clock of the seat to act run out, then sweep as the beat does."""
    Table.objects.filter(pk=table.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    with committed():
        played = services.clocks_sweep()
    table.refresh_from_db()
    return played


def test_a_deadline_in_the_future_plays_nothing() -> None:
    _table, _ = people_table()
    with committed():
        assert services.clocks_sweep() == 0


def test_an_expired_clock_plays_for_the_seat_and_marks_it_timeout() -> None:
    table, seat = people_table()
    expire(table)
    row = TableAction.objects.get(table=table, version=1)
    assert (row.seat, row.source) == (seat, TableAction.Source.TIMEOUT)


def test_every_action_sets_a_fresh_deadline_for_the_next_seat() -> None:
    table, _ = people_table()
    before = timezone.now()
    expire(table)
    assert table.deadline is not None and table.deadline >= before + timedelta(
        seconds=table.move_seconds - 1
    )


def test_two_timeouts_in_a_row_hand_the_seat_to_a_bot() -> None:
    table, seat = people_table()
    while True:  # run the clock until the same seat has timed out twice
        to_act = current(table).match.to_act
        expire(table)
        if to_act == seat and Seat.objects.get(table=table, number=seat).timeouts_in_row == 2:
            break
    assert Seat.objects.get(table=table, number=seat).away is True


def test_a_person_acting_again_takes_the_seat_back() -> None:
    table, seat = people_table()
    Seat.objects.filter(table=table, number=seat).update(away=True, timeouts_in_row=2)
    Table.objects.filter(pk=table.pk).update(seats_version=table.seats_version + 1)
    table.refresh_from_db()
    action = current(table).match.legal_actions()[-1]
    with committed():
        services.action_submit(
            table_id=table.pk, seat=seat, action=action, expected_version=table.version
        )
    seat_row = Seat.objects.get(table=table, number=seat)
    assert (seat_row.away, seat_row.timeouts_in_row) == (False, 0)


def test_back_after_timeouts_restores_the_persons_clock() -> None:
    table, seat = people_table()
    user = Seat.objects.get(table=table, number=seat).user
    Seat.objects.filter(table=table, number=seat).update(away=True, timeouts_in_row=2)
    with committed():
        services.seat_return(table_id=table.pk, user=user)
    table.refresh_from_db()
    assert table.deadline > timezone.now() + timedelta(seconds=table.move_seconds - 2)


def test_a_lost_bot_turn_is_played_by_the_sweep() -> None:
    table, _ = started_table(humans=1, bots=2)
    if current(table).match.to_act == 0:
        with committed():
            services.action_submit(table_id=table.pk, seat=0, action=Pass(), expected_version=0)
        table.refresh_from_db()
    scheduler.discard_pending()  # the worker that had the bot's turn died
    version = table.version
    expire(table)
    assert (
        table.version == version + 1
        and TableAction.objects.get(table=table, version=version + 1).source == "bot"
    )
