"""End to end on PostgreSQL and Redis, with a real Celery worker and beat: a 7-player Swiss
tournament is scheduled, starts by itself, plays every round (the clock and then bots play
for the registered players, who never move) and finishes with its standings."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import redis
from django.db import connection
from django.utils import timezone

from tests.factories import UserFactory
from tests.integration.conftest import require_postgres_database
from tournaments import services
from tournaments.models import Assignment, AssignmentSeat, Standing, Tournament

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
DEADLINE = 600  # seconds for the whole event on a busy 2-core machine


def start(command: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    with log.open("w") as out:
        return subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=out)


def stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@pytest.mark.slow(seconds=95)
def test_a_seven_player_swiss_runs_by_itself_to_its_standings(
    postgres_url: str, redis_url: str, tmp_path: Path
) -> None:
    require_postgres_database()
    now = timezone.now()
    t = services.tournament_create(
        created_by=None,
        name="Seven at the tables",
        format=Tournament.Format.SWISS,
        players_per_table=3,
        preset="simple",
        match_target=100,
        rated=False,
        rounds=2,
        move_seconds=5,
        break_seconds=1,
        bot_level="random",
        registration_opens_at=now - timedelta(minutes=1),
        starts_at=now + timedelta(seconds=15),
    )
    services.tournament_schedule(tournament=t)
    services.tournament_open_registration(tournament=t, now=now)
    users = [UserFactory() for _ in range(7)]
    for user in users:
        services.registration_create(tournament=t, user=user, now=now)

    database = urlsplit(postgres_url)._replace(path=f"/{connection.settings_dict['NAME']}")
    queue = f"e2e-{uuid.uuid4().hex[:10]}"
    env = {
        **os.environ,
        "DATABASE_URL": database.geturl(),
        "REDIS_URL": redis_url,
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "GAMES_SCHEDULER": "celery",
        "GAMES_BOT_DELAY": "0",
        "E2E_QUEUE": queue,
        "LOG_FORMAT": "console",
    }
    env.pop("CELERY_BROKER_URL", None)
    celery = [sys.executable, "-m", "celery", "-A", "tests.tournaments.celery_app"]
    worker = start(
        [*celery, "worker", "--pool=solo", "--queues", queue, "--hostname", f"{queue}@%h",
         "--without-gossip", "--without-mingle", "--without-heartbeat", "--loglevel=INFO"],
        env,
        tmp_path / "worker.log",
    )  # fmt: skip
    beat = start(
        [*celery, "beat", "--schedule", str(tmp_path / "beat-schedule"), "--loglevel=INFO"],
        env,
        tmp_path / "beat.log",
    )
    try:
        waited = 0.0
        while waited < DEADLINE:
            t.refresh_from_db()
            if t.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
                break
            assert worker.poll() is None, (tmp_path / "worker.log").read_text()[-3000:]
            time.sleep(2)
            waited += 2
    finally:
        stop(beat)
        stop(worker)
        client = redis.Redis.from_url(redis_url)
        client.delete(queue, f"_kombu.binding.{queue}")

    assert t.status == Tournament.Status.FINISHED, (tmp_path / "worker.log").read_text()[-3000:]
    assert t.round_set.count() == 2
    rows = list(Standing.objects.filter(tournament=t).order_by("position"))
    assert sorted(r.user_id for r in rows) == sorted(u.pk for u in users)
    assert all(r.matches == 2 for r in rows)
    assert rows[0].rank == 1 and rows[0].points >= rows[-1].points
    # Two bots a round filled the field of seven, and nobody sat twice in a round.
    for rnd in t.round_set.all():
        seats = AssignmentSeat.objects.filter(assignment__round=rnd)
        assert seats.filter(user=None).count() == 2
        humans = list(seats.exclude(user=None).values_list("user_id", flat=True))
        assert len(humans) == len(set(humans)) == 7
    assert not Assignment.objects.filter(round__tournament=t, table=None).exists()
