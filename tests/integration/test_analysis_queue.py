"""The analysis runs on a queue of its own: bot turns keep flowing while one runs (issue
30). Real Celery workers, as deployed (one pool for ``bots``, one for ``analysis``), on
PostgreSQL and Redis."""

from __future__ import annotations

import sys
import time
from typing import Any

import pytest

from analysis import services as analysis_services
from analysis.models import Analysis
from games import services
from games.models import Seat, Table
from tests.analysis.helpers import finished_table
from tests.games.helpers import open_table
from tests.games.test_servers import Process, processes, stack_env  # noqa: F401  (fixtures)

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(300),
]


def worker(queue: str, env: dict[str, str]) -> Process:
    return Process(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--queues", queue,
         "--hostname", f"{queue}-test@%h", "--pool", "solo", "--without-gossip",
         "--without-mingle", "--loglevel", "WARNING"],
        env,
    )  # fmt: skip


def wait_for(predicate: Any, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.2)
    return False


@pytest.mark.slow(seconds=60)
def test_bot_turns_keep_flowing_while_an_analysis_runs(
    stack_env: dict[str, str],  # noqa: F811
    processes: list[Process],  # noqa: F811
    settings: Any,
) -> None:
    from config.celery import app

    settings.GAMES_SCHEDULER = "celery"
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.ANALYSIS_SAMPLES = 2000  # a long analysis: it must still be running below
    app.conf.task_always_eager = False
    app.conf.broker_url = stack_env["REDIS_URL"]
    env = {**stack_env, "GAMES_BOT_DELAY": "0.05"}
    processes.append(worker("bots", env))
    processes.append(worker("analysis", env))

    done = finished_table(deals=6)
    person = Seat.objects.get(table=done, number=0).user
    analysis = analysis_services.analysis_request(table_id=done.pk, user=person)
    running = Analysis.objects.filter(pk=analysis.pk, status="running")
    assert wait_for(running.exists, 90), "the analysis worker never started the analysis"

    table, (me,) = open_table(humans=1, bots=2, move_seconds=600)
    services.table_start(table=table, user=me)
    services.table_resign(table=table, user=me)  # a bot plays his seat: bots only now

    def moved() -> bool:
        table.refresh_from_db()
        return table.version >= 30 or table.status != Table.Status.PLAYING

    assert wait_for(moved, 120), f"the bots made {table.version} moves"
    # The bots played 30 actions while the analysis ran on its own pool.
    now = Analysis.objects.get(pk=analysis.pk)
    assert now.status == "running" and now.done < now.total
    analysis_services.analysis_cancel(table_id=done.pk, user=person)
