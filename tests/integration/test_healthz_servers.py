"""/healthz on a real server and a real Celery worker with beat.

* With PostgreSQL unreachable the server still answers, 503, within the load balancer's
  health-check timeout (docker-compose.yml: 5 s), even though a pooled connection is awaited in
  the request's own thread, which Django's synchronous middleware waits for before it
  sends the response.
* A worker with beat records its periodic tasks' runs, and /healthz turns ok; when
  the worker is killed, /healthz says degraded, naming the clock sweep.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.integration.processes import ROOT, free_port, start_worker, stop, wait_until

pytestmark = [pytest.mark.integration, pytest.mark.timeout(300)]

BALANCER_TIMEOUT = 5.0  # docker-compose.yml's health checks of the web service


def get_health(port: int) -> tuple[int, dict[str, Any]]:
    try:
        with urllib.request.urlopen(
            f"http://127.0.0.1:{port}/healthz", timeout=BALANCER_TIMEOUT
        ) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def server_env(redis_url: str, database_url: str) -> dict[str, str]:
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": "healthz-" + uuid.uuid4().hex,
        "GAMES_SCHEDULER": "celery",
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "LOG_LEVEL": "WARNING",
        "LOG_FORMAT": "console",
    }
    env.pop("CELERY_BROKER_URL", None)
    return env


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Any]:
    started: list[subprocess.Popen[bytes]] = []

    def serve(env: dict[str, str]) -> int:
        port = free_port()
        log = (tmp_path / f"web-{port}.log").open("w")
        started.append(subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1", "--port", str(port),
             "--no-access-log"],
            cwd=ROOT, env=env, stdout=log, stderr=log, start_new_session=True,
        ))  # fmt: skip

        def listening() -> bool:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            except OSError:
                return False
            return True

        assert wait_until(listening, 30), (tmp_path / f"web-{port}.log").read_text()
        return port

    yield serve
    for process in started:
        stop(process)


def test_healthz_answers_503_in_time_with_postgresql_unreachable(server, redis_url) -> None:
    port = server(server_env(redis_url, f"postgres://postgres@127.0.0.1:{free_port()}/thousand"))

    answers = [get_health(port) for _ in range(3)]  # the later ones while the first may still wait

    assert [status for status, _ in answers] == [503, 503, 503]
    assert all(body["checks"]["database"]["ok"] is False for _, body in answers)
    assert all(body["checks"]["channel_layer"]["ok"] is True for _, body in answers)


@pytest.mark.slow(seconds=30)
def test_healthz_follows_the_worker_and_beat(server, redis_url, postgres_url, tmp_path) -> None:
    env = server_env(redis_url, f"sqlite:///{tmp_path / 'db.sqlite3'}")
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True
    )
    port = server(env)
    worker = start_worker(
        env, tmp_path / "worker.log", "--beat", "--scheduler", "celery.beat:PersistentScheduler",
        "--schedule", str(tmp_path / "beat-schedule"), "--pool=solo", "--loglevel=WARNING",
        "--hostname", f"healthz-{uuid.uuid4().hex[:8]}@%h",
    )  # fmt: skip
    try:
        healthy = wait_until(
            lambda: get_health(port)[1]["checks"]["scheduler"]["ok"], 60, interval=0.5
        )
        assert healthy, (tmp_path / "worker.log").read_text()
    finally:
        stop(worker)

    def degraded() -> bool:
        return get_health(port)[1]["checks"]["scheduler"]["ok"] is False

    assert wait_until(degraded, 30, interval=1)
    status, body = get_health(port)
    assert status == 503
    assert body["status"] == "degraded"
    # then the workers are pinged (0.5 s): none answers, or on a busy machine the ping
    # itself did not come back within the check's second
    assert body["checks"]["scheduler"]["error"].startswith("games.clocks_sweep")
    assert body["checks"]["scheduler"]["workers"] in ([], None)
