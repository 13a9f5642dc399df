"""The bots' fair queue on a real Redis: one owner's many tables of
bots cannot keep another player's bot turns waiting behind theirs."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import bot_queue, scheduler, services
from games.models import Table, TableAction
from tests.factories import UserFactory
from tests.games.helpers import committed

pytestmark = pytest.mark.django_db


def push(owner: str, table_id: int, delay: float = 0.0, version: int = 1) -> None:
    bot_queue.push(owner=owner, table_id=table_id, version=version, delay=delay)


def taken() -> tuple[str, int]:
    job = bot_queue.pop()
    assert isinstance(job, bot_queue.Job), job
    return job.owner, job.table_id


def test_an_owner_with_many_tables_does_not_keep_another_waiting(fair_queue) -> None:
    for table in range(1, 7):
        push("u1", table)
    assert taken() == ("u1", 1)
    bot_queue.charge(owner="u1", seconds=1.2)  # a master bot's decision

    push("u2", 100)

    assert taken() == ("u2", 100)
    assert taken() == ("u1", 2)


def test_the_pool_time_is_shared_between_owners_always_waiting(fair_queue) -> None:
    """Two owners always backlogged: the one whose bots cost 4x more gets a quarter of
    the turns, so that each has about half of the pool's time."""
    for table in range(1, 41):
        push("heavy", table)
        push("light", 1000 + table)
    counts = {"heavy": 0, "light": 0}
    for _ in range(40):
        owner, _table = taken()
        counts[owner] += 1
        bot_queue.charge(owner=owner, seconds=2.0 if owner == "heavy" else 0.5)

    assert counts == {"heavy": 8, "light": 32}


def test_one_owners_tables_take_turns_in_the_order_they_fell_due(fair_queue) -> None:
    for table in (5, 3, 9):
        push("u1", table)

    assert [taken() for _ in range(3)] == [("u1", 5), ("u1", 3), ("u1", 9)]


def test_a_job_is_not_played_before_its_pause(fair_queue) -> None:
    push("u1", 1, delay=30)

    later = bot_queue.pop()

    assert isinstance(later, bot_queue.Later) and 29 < later.seconds <= 30
    assert fair_queue.zcard(bot_queue.JOBS_KEY.format(owner="u1")) == 1


def test_an_owner_back_after_a_burst_starts_level_with_the_others(fair_queue) -> None:
    """Neither punished for an old burst nor credited for waiting: he starts where the
    least-served other's turn in progress started (its score less a turn's charge)."""
    push("u1", 1)
    taken()
    bot_queue.charge(owner="u1", seconds=100)  # a long burst, over
    bot_queue.pop()  # the queue forgets an owner with nothing waiting
    push("u2", 2)
    taken()
    bot_queue.charge(owner="u2", seconds=5)
    push("u2", 3)

    push("u1", 4)

    scores = dict(fair_queue.zrange(bot_queue.OWNERS_KEY, 0, -1, withscores=True))
    assert scores == {b"u2": 5.0, b"u1": 5.0 - bot_queue.IN_FLIGHT_CHARGE}


class FifoBroker:
    """The bots' queue of the broker as one worker process sees it: the tasks sent, run
    one at a time in the order they were sent (the countdowns are all zero here)."""

    def __init__(self, task: Any) -> None:
        self.task = task
        self.sent: list[tuple[Any, ...]] = []

    def apply_async(self, **kwargs: Any) -> None:
        self.sent.append(tuple(kwargs.get("args", ())))

    def run_next(self) -> None:
        args = self.sent.pop(0)
        with committed():
            self.task(*args)


@pytest.fixture
def broker(fair_queue, settings) -> Iterator[FifoBroker]:
    settings.GAMES_SCHEDULER = "celery"
    registered = scheduler.jobs()
    broker = FifoBroker(registered.bot_turn_task)
    scheduler.register(bot_turn=registered.bot_turn, bot_turn_task=broker)
    yield broker
    scheduler.register(bot_turn=registered.bot_turn, bot_turn_task=registered.bot_turn_task)


def a_table_of_bots(user: Any) -> int:
    """A started table where a bot acts first (seat 0 deals; bots at seats 1 and 2)."""
    with committed():
        table = services.table_create(user=user, players=3)
        for _ in range(2):
            services.seat_fill_with_bot(table=table, level="basic", by=user)
        services.table_start(table=table, user=user, first_dealer=0)
    return table.pk


def test_another_players_bot_turn_goes_before_a_flood_of_older_ones(broker, settings) -> None:
    """Eight tables of one person, then one of another: the other's bot plays after at
    most one of the flood's turns (it was the ninth in the queue, behind them all). The
    caps on tables of bots are lifted: the queue must be fair even past them."""
    settings.GAMES_BOT_TABLES_PER_USER = 8
    flooder = UserFactory()
    flood = [a_table_of_bots(flooder) for _ in range(8)]
    other = a_table_of_bots(UserFactory())

    while not TableAction.objects.filter(table_id=other, source=TableAction.Source.BOT).exists():
        broker.run_next()

    played_before = TableAction.objects.filter(
        table_id__in=flood, source=TableAction.Source.BOT
    ).count()
    assert played_before <= 1


def expire_clock(table_id: int) -> None:
    Table.objects.filter(pk=table_id).update(deadline=timezone.now() - timedelta(seconds=1))


def test_the_sweep_leaves_a_turn_waiting_in_the_queue_to_it_and_sends_one_token(
    broker,
) -> None:
    """Playing every bot turn past its grace itself, the sweep had played a flood's master
    turns one after another ahead of everyone's; now it only makes sure a token is out."""
    table_id = a_table_of_bots(UserFactory())
    expire_clock(table_id)

    for _ in range(3):
        with committed():
            services.clocks_sweep()

    assert not TableAction.objects.filter(table_id=table_id).exists()
    assert len(broker.sent) == 2  # the turn's own token and one sent by the sweep


def test_the_sweep_plays_a_turn_the_queue_lost(broker, fair_queue) -> None:
    table_id = a_table_of_bots(UserFactory())
    fair_queue.delete(bot_queue.DUE_KEY)  # as when Redis comes back empty
    expire_clock(table_id)

    with committed():
        played = services.clocks_sweep()

    assert played == 1
    assert TableAction.objects.filter(table_id=table_id, source=TableAction.Source.BOT).exists()


def test_with_eager_celery_a_bot_turn_is_played_at_once_without_sending_itself_again(
    fair_queue, settings
) -> None:
    """Eager Celery (task_always_eager) has no countdowns: the token ran at once, found its
    turn not yet due and sent itself again until the stack overflowed, leaving the Redis
    connection mid-reply for the next command."""
    settings.GAMES_SCHEDULER = "celery"
    settings.GAMES_BOT_DELAY = 0.8
    app = scheduler.jobs().bot_turn_task.app
    saved = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        table_id = a_table_of_bots(UserFactory())
    finally:
        app.conf.task_always_eager = saved

    assert TableAction.objects.filter(table_id=table_id, source=TableAction.Source.BOT).exists()
