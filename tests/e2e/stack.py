"""The live server as the full stack runs, for browser tests that need it: tasks go
through Redis to real Celery worker processes, the channel layer is Redis, the database
PostgreSQL. Used by the club evening (a worker and Celery beat) and the analysis's
progress (a worker of its own on the analysis queue, as deployed)."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from tests.e2e.live import ROOT, LiveServer
from tests.services import ci


def postgres_and_redis(what: str) -> None:
    """Skip (fail under CI) unless DATABASE_URL names PostgreSQL and REDIS_URL is set."""
    database, redis_url = os.environ.get("DATABASE_URL", ""), os.environ.get("REDIS_URL", "")
    if database.startswith(("postgres://", "postgresql://")) and redis_url:
        return
    message = f"{what} needs PostgreSQL and Redis: set DATABASE_URL and REDIS_URL"
    pytest.fail(message) if ci() else pytest.skip(message)


class FullStack(LiveServer):
    """The live server with its tasks sent through Redis to a Celery worker on a queue
    of this run's own (web, worker and beat share it and nobody else), the tick and the
    clocks from Celery beat (``beat=False``: none). ``analysis_worker=True``: the
    analysis's tasks go to a queue of their own (this run's ``<queue>-analysis``),
    served by a worker as ``scripts/stack`` and compose run it (prefork, one process,
    one task prefetched)."""

    def __init__(self, *, beat: bool = True, analysis_worker: bool = False) -> None:
        super().__init__(bot_delay="0.2")
        self.queue = f"evening-{uuid.uuid4().hex[:10]}"
        self.analysis_queue = f"{self.queue}-analysis" if analysis_worker else None
        self.beat = beat
        self.workers: list[subprocess.Popen[bytes]] = []
        self.names: list[str] = []

    def environment(self) -> dict[str, str]:
        env = super().environment()
        env.update(
            DJANGO_SETTINGS_MODULE="tests.e2e.evening_settings",
            E2E_QUEUE=self.queue,
            CELERY_TASK_ALWAYS_EAGER="false",
            GAMES_SCHEDULER="celery",
        )
        if self.analysis_queue is not None:
            env["E2E_ANALYSIS_QUEUE"] = self.analysis_queue
        env.pop("CELERY_BROKER_URL", None)
        return env

    def start(self) -> FullStack:
        super().start()
        tmp = Path(self.tmp.name)
        commands = [
            ("worker", ["worker", "--pool=threads", "--concurrency=4", "--queues", self.queue,
                        "--hostname", f"{self.queue}@%h", "--without-gossip",
                        "--without-mingle", "--without-heartbeat", "--loglevel=WARNING"]),
        ]  # fmt: skip
        if self.beat:
            commands.append(
                ("beat", ["beat", "--schedule", str(tmp / "beat-schedule"), "--loglevel=WARNING"])
            )
        if self.analysis_queue is not None:
            commands.append(("worker-analysis", self.analysis_worker_args()))
        for name, args in commands:
            self.spawn(name, args)
        return self

    def analysis_worker_args(self) -> list[str]:
        assert self.analysis_queue is not None
        return ["worker", "--queues", self.analysis_queue, "--concurrency=1",
                "--prefetch-multiplier=1", "--hostname", f"{self.analysis_queue}@%h",
                "--without-gossip", "--without-mingle", "--loglevel=INFO"]  # fmt: skip

    def spawn(self, name: str, args: list[str]) -> subprocess.Popen[bytes]:
        out = (Path(self.tmp.name) / f"{name}.log").open("ab")
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", *args],
            cwd=ROOT,
            env=self.env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.workers.append(process)
        self.names.append(name)
        return process

    def stop(self) -> None:
        for process in self.workers:
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
        self.workers = []
        try:
            import redis

            queues = [q for q in (self.queue, self.analysis_queue) if q is not None]
            redis.Redis.from_url(os.environ["REDIS_URL"]).delete(
                *queues, *(f"_kombu.binding.{q}" for q in queues)
            )
        finally:
            super().stop()

    def logs(self) -> str:
        tmp = Path(self.tmp.name)
        return (
            "\n".join(
                f"--- {name}\n" + (tmp / f"{name}.log").read_text(errors="replace")[-3000:]
                for name in ("worker", "beat", "worker-analysis")
                if (tmp / f"{name}.log").exists()
            )
            + "\n--- web\n"
            + self.log()
        )
