"""A Celery worker that loses its Redis broker comes back when Redis does.

Celery 5.7.0 with kombu 5.7.0 died for good ("Unrecoverable error: AttributeError:
'NoneType' object has no attribute 'hostname'") when the broker went away while the
worker held unacknowledged messages: tasks waiting for their countdown, as every bot
turn does, and, a second way, when a task that was running at the loss was
acknowledged or rejected after the reconnect, through its old channel.
config.celery.Consumer closes the lost connection in an order that cannot crash, and
gives the old transport its broker back for those late acks. The tests run against a
Redis of their own that they stop and start again.

(Cutting the connections with CLIENT KILL does not show it: redis-py retries the
command on a new connection and the worker never sees a loss.)
"""

from __future__ import annotations

import os
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from celery import Celery

from tests.integration.processes import RedisServer, start_worker, stop, wait_until

pytestmark = [pytest.mark.integration, pytest.mark.timeout(300)]


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path)
    server.start()
    yield server
    server.stop()


def outage_worker(
    server: RedisServer, tmp_path: Path, *pool: str
) -> tuple[subprocess.Popen[bytes], str, Path]:
    """A worker on a queue of its own of ``server``, with the outage tests' tasks."""
    queue = f"outage-{uuid.uuid4().hex[:8]}"
    log = tmp_path / f"{queue}.log"
    env = {
        **os.environ,
        "REDIS_URL": server.url,
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'worker.sqlite3'}",
        "LOG_FORMAT": "console",
    }
    env.pop("CELERY_BROKER_URL", None)
    process = start_worker(
        env, log, *pool, "--include", "tests.integration.outage_tasks", "--queues", queue,
        "--hostname", f"{queue}@%h", "--without-gossip", "--without-mingle",
        "--without-heartbeat", "--loglevel=INFO",
    )  # fmt: skip
    return process, queue, log


@pytest.fixture
def worker(
    own_redis: RedisServer, tmp_path: Path
) -> Iterator[tuple[subprocess.Popen[bytes], str, Path]]:
    process, queue, log = outage_worker(own_redis, tmp_path, "--pool=solo")
    yield process, queue, log
    stop(process)


@pytest.fixture
def prefork_worker(
    own_redis: RedisServer, tmp_path: Path
) -> Iterator[tuple[subprocess.Popen[bytes], str, Path]]:
    """As scripts/stack and docker-compose.yml run them: tasks in child processes."""
    process, queue, log = outage_worker(own_redis, tmp_path, "--pool=prefork", "--concurrency=1")
    yield process, queue, log
    stop(process)


def client_for(server: RedisServer) -> Celery:
    return Celery("outage-client", broker=server.url, backend=server.url)


def hold_countdown_tasks(
    server: RedisServer, queue: str, log: Path, count: int, countdown: float
) -> None:
    """Send ``count`` pings with a countdown; wait until the worker holds them unacknowledged."""
    client = client_for(server)
    assert wait_until(lambda: "ready" in log.read_text(), 60), log.read_text()
    for i in range(count):
        client.send_task("config.ping", args=[str(i)], queue=queue, countdown=countdown)
    held = wait_until(lambda: server.client().hlen("unacked") == count, 30)
    assert held, f"the worker did not take the tasks; its log:\n{log.read_text()}"


def test_worker_outlives_a_redis_restart_while_holding_countdown_tasks(own_redis, worker) -> None:
    process, queue, log = worker
    hold_countdown_tasks(own_redis, queue, log, count=3, countdown=300)

    own_redis.stop()
    wait_until(lambda: process.poll() is not None, 3)  # the crash came at once, if at all
    own_redis.start()
    reply = (
        client_for(own_redis).send_task("config.ping", args=["back"], queue=queue).get(timeout=60)
    )

    assert process.poll() is None, log.read_text()
    assert reply["pong"] == "back"
    assert "Unrecoverable error" not in log.read_text()


def test_worker_outlives_redis_outages_while_a_late_acked_task_runs(
    own_redis, prefork_worker
) -> None:
    """A task (acks_late, as bot turns are) runs in a child when Redis goes; Celery cancels
    it and rejects it back to its queue, or it ends and is acknowledged, after the
    reconnect, through the channel of the lost connection. Three outages, each with a
    task in flight: the worker lives through all three."""
    process, queue, log = prefork_worker
    assert wait_until(lambda: "ready" in log.read_text(), 60), log.read_text()

    for outage in range(3):
        client = client_for(own_redis)
        client.send_task("outage.nap", args=[2.0], queue=queue)
        running = wait_until(lambda n=outage: log.read_text().count("outage.nap[") > n, 30)
        assert running, log.read_text()
        own_redis.stop()
        time.sleep(3)  # the nap ends (or is cancelled) while the broker is away
        own_redis.start()
        result = client_for(own_redis).send_task(
            "config.ping", args=[f"back {outage}"], queue=queue
        )
        wait_until(lambda r=result: r.ready() or process.poll() is not None, 60, interval=0.5)

        assert process.poll() is None, log.read_text()[-3000:]
        assert result.get(timeout=1)["pong"] == f"back {outage}"
    assert "Unrecoverable error" not in log.read_text()
