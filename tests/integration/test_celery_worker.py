"""A Celery task executed by a real worker process through the Redis broker."""

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
import redis
from celery import Celery

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def worker(redis_url, tmp_path):
    """Start `celery -A config worker` on a queue of its own; stop it afterwards."""
    queue = f"test-{uuid.uuid4().hex[:12]}"
    log = tmp_path / "worker.log"
    env = {
        **os.environ,
        "REDIS_URL": redis_url,
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'worker.sqlite3'}",
        "LOG_FORMAT": "console",
    }
    env.pop("CELERY_BROKER_URL", None)
    command = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "config",
        "worker",
        "--pool=solo",
        "--queues",
        queue,
        "--hostname",
        f"{queue}@%h",
        "--without-gossip",
        "--without-mingle",
        "--without-heartbeat",
        "--loglevel=INFO",
    ]
    with log.open("w") as out:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=out)
    try:
        yield process, queue, log
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        client = redis.Redis.from_url(redis_url)
        client.delete(queue, f"_kombu.binding.{queue}")


def test_ping_task_runs_in_the_worker_process(redis_url, worker):
    process, queue, log = worker
    client = Celery("test-client", broker=redis_url, backend=redis_url)

    result = client.send_task("config.ping", args=["hello"], queue=queue)
    try:
        reply = result.get(timeout=60)
    except Exception:
        pytest.fail(f"the worker did not answer; its log:\n{log.read_text()}")

    assert reply == {"pong": "hello", "pid": process.pid}
