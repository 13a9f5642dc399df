"""Ratings on the real PostgreSQL and Redis: exactly once under concurrency, and the real
Celery task path from a finished match to the leaderboard and the profile chart."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from django.db import connection, connections
from django.test import Client

from config.celery import QUEUES
from ratings import services
from ratings.models import RatingChange
from ratings.services import duplicate, single
from tests.factories import UserFactory
from tests.games.conftest import _manual_scheduler  # noqa: F401  (autouse: bots wait for the test)
from tests.integration.conftest import require_postgres_database
from tests.ratings.helpers import finished_match

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def on_postgres() -> None:
    require_postgres_database()


def run_together(count: int, fn: Any) -> list[Any]:
    """Run ``fn`` in ``count`` threads at once (each with its own connection)."""
    results: list[Any] = [None] * count
    errors: list[BaseException] = []

    def body(i: int) -> None:
        try:
            results[i] = fn()
        except BaseException as exc:  # reported below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=body, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors
    return results


def test_two_workers_at_once_write_one_change_per_player(
    on_postgres: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = finished_match([UserFactory(), UserFactory(), UserFactory()])
    # Both workers get past the early "already processed?" look before either writes.
    barrier = threading.Barrier(2, timeout=30)
    replay = single.seat_lines

    def slow_replay(record: Any) -> Any:
        lines = replay(record)
        barrier.wait()
        return lines

    monkeypatch.setattr(single, "seat_lines", slow_replay)
    statuses = run_together(2, lambda: services.rating_apply_result(result_id=result.pk).status)
    assert (sorted(statuses), RatingChange.objects.filter(result=result).count()) == (
        ["already", "applied"],
        3,
    )


def test_two_workers_rating_one_duplicate_round_at_once_write_one_change_per_player(
    on_postgres: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    from games.models import Table

    users = [UserFactory() for _ in range(6)]
    one = finished_match(users[:3], seed=1)
    two = finished_match(users[3:], seed=2)
    Table.objects.filter(pk__in=[one.table_id, two.table_id]).update(
        dealing_source={"round_commitment": "r"}
    )
    groups = [[(one.pk, seat, 10 * seat), (two.pk, seat, 5)] for seat in range(3)]
    dup = services.duplicate_round_record(
        key="r", players=3, result_ids=[one.pk, two.pk], groups=groups
    )
    assert dup is not None
    # Both workers get past the early "already rated?" look before either writes.
    barrier = threading.Barrier(2, timeout=30)
    replay = duplicate.seat_lines
    mine = threading.local()

    def slow_replay(record: Any) -> Any:
        lines = replay(record)
        mine.calls = getattr(mine, "calls", 0) + 1
        if mine.calls == 2:  # the worker's second table: it has looked, it has not written
            barrier.wait()
        return lines

    monkeypatch.setattr(duplicate, "seat_lines", slow_replay)
    statuses = run_together(
        2, lambda: services.rating_apply_duplicate_round(round_id=dup.pk).status
    )
    assert (sorted(statuses), RatingChange.objects.count()) == (["already", "applied"], 6)


def test_many_results_on_two_workers_match_a_serial_recompute(on_postgres: None) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from ratings.models import Rating

    users = [UserFactory() for _ in range(5)]
    now = timezone.now()
    results = [
        finished_match(
            [users[(i + k) % 5] for k in range(3)], at=now + timedelta(minutes=i), seed=i + 1
        )
        for i in range(8)
    ]
    queue = list(results)
    lock = threading.Lock()

    def drain() -> None:
        while True:
            with lock:
                if not queue:
                    return
                r = queue.pop()
            services.rating_apply_result(result_id=r.pk)

    run_together(2, drain)
    concurrent = {(r.competitor_id, r.players): round(r.rating, 9) for r in Rating.objects.all()}
    services.ratings_recompute()
    serial = {(r.competitor_id, r.players): round(r.rating, 9) for r in Rating.objects.all()}
    assert (RatingChange.objects.count(), concurrent) == (24, serial)


@pytest.fixture
def worker(
    on_postgres: None, redis_url: str, tmp_path: Path
) -> Iterator[tuple[subprocess.Popen[bytes], Path]]:
    """A real Celery worker on the test database and the default queue of this Redis db."""
    db = connection.settings_dict
    database_url = (
        f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    )
    log = tmp_path / "worker.log"
    env = {
        **os.environ,
        "REDIS_URL": redis_url,
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "DATABASE_URL": database_url,
        "LOG_FORMAT": "console",
    }
    env.pop("CELERY_BROKER_URL", None)
    redis.Redis.from_url(redis_url).delete(*QUEUES)  # no task left over from another test
    command = [
        sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
        "--without-gossip", "--without-mingle", "--without-heartbeat", "--loglevel=INFO",
    ]  # fmt: skip
    with log.open("w") as out:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=out)
    try:
        yield process, log
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.mark.slow(seconds=30)
def test_a_rated_match_at_a_live_table_reaches_the_leaderboard_and_the_chart_through_the_worker(
    worker: tuple[subprocess.Popen[bytes], Path], redis_url: str, client: Client
) -> None:
    """The whole path: the games services play a rated table to the end, the result's
    signal enqueues ``ratings.apply_result`` on Redis, a real worker process applies it."""
    from config.celery import app
    from tests.games.helpers import play_to_end, started_table

    table, (ann,) = started_table(humans=1, bots=2, players=3, rated=True)
    saved = (app.conf.task_always_eager, app.conf.broker_url)
    app.conf.task_always_eager = False
    app.conf.broker_url = redis_url
    try:
        play_to_end(table)
    finally:
        app.conf.task_always_eager, app.conf.broker_url = saved
    process, log = worker
    deadline = time.monotonic() + 60
    while not RatingChange.objects.filter(result__table=table).exists():
        assert process.poll() is None, f"the worker died; its log:\n{log.read_text()}"
        assert time.monotonic() < deadline, "the worker did not apply the result within 60 s"
        time.sleep(0.2)
    board = client.get("/leaderboards/?provisional=1").content.decode()
    profile = client.get(f"/players/{ann.username}/").content.decode()
    assert "ratings.apply_result" in log.read_text()  # the worker ran it, not this process
    # One match: the profile's chart draws its points (a line from three matches on).
    assert ann.get_display_name() in board and 'class="rating-point" data-players="3"' in profile
