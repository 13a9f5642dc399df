"""A Celery worker that loses its Redis broker comes back when Redis does.

Celery 5.7.0 with kombu 5.7.0 died for good ("Unrecoverable error: AttributeError:
'NoneType' object has no attribute 'hostname'") when the broker went away while the
worker held unacknowledged messages: tasks waiting for their countdown, as every bot
turn does. config.celery.Consumer closes the lost connection in an order that cannot
crash. The test runs against a Redis of its own that it stops and starts again.

(Cutting the connections with CLIENT KILL does not show it: redis-py retries the
command on a new connection and the worker never sees a loss.)
"""

from __future__ import annotations

import os
import subprocess
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


@pytest.fixture
def worker(
    own_redis: RedisServer, tmp_path: Path
) -> Iterator[tuple[subprocess.Popen[bytes], str, Path]]:
    queue = f"outage-{uuid.uuid4().hex[:8]}"
    log = tmp_path / "worker.log"
    env = {
        **os.environ,
        "REDIS_URL": own_redis.url,
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'worker.sqlite3'}",
        "LOG_FORMAT": "console",
    }
    env.pop("CELERY_BROKER_URL", None)
    process = start_worker(
        env, log, "--pool=solo", "--queues", queue, "--hostname", f"{queue}@%h",
        "--without-gossip", "--without-mingle", "--without-heartbeat", "--loglevel=INFO",
    )  # fmt: skip
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
