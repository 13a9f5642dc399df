"""Processes the fault tests start and stop: a Redis of their own, Celery workers.

A Redis server of a test's own (on a free port, in a temporary directory, without
persistence) can be stopped and started again without touching the shared one.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import redis

from tests.services import require_tool

ROOT = Path(__file__).resolve().parents[2]


def haproxy_binary() -> str:
    """HAProxy's path (Debian installs it in /usr/sbin); without it the test skips, or
    fails when ``CI`` is set."""
    import shutil

    import pytest

    from tests.services import ci

    found = shutil.which("haproxy") or shutil.which("haproxy", path="/usr/sbin")
    if found is None:
        message = "needs HAProxy (apt-get install haproxy)"
        if ci():
            pytest.fail(f"CI is set, so this is a failure: {message}", pytrace=False)
        pytest.skip(message)
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_until(predicate, timeout: float, interval: float = 0.1) -> bool:  # type: ignore[no-untyped-def]
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(interval)
    return bool(predicate())


class RedisServer:
    """``redis-server`` on a free port; ``stop()`` and ``start()`` at will."""

    def __init__(self, directory: Path) -> None:
        self.binary = require_tool("redis-server")
        self.directory = directory
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def client(self) -> redis.Redis:
        return redis.Redis.from_url(self.url, socket_timeout=2, socket_connect_timeout=2)

    def start(self) -> None:
        log = (self.directory / "redis.log").open("a")
        self.process = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.directory)],
            stdout=log, stderr=log, start_new_session=True,
        )  # fmt: skip

        def answers() -> bool:
            try:
                return bool(self.client().ping())
            except redis.RedisError:
                return False

        assert wait_until(answers, 10), "redis-server did not start"

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)
        self.process = None


def start_worker(env: dict[str, str], log: Path, *args: str) -> subprocess.Popen[bytes]:
    """``celery -A config worker`` with ``args``, its output in ``log``."""
    command = [sys.executable, "-m", "celery", "-A", "config", "worker", *args]
    with log.open("a") as out:
        return subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=out, stderr=out, start_new_session=True
        )


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)


class Stack:
    """``scripts/stack`` with ``args``: its processes' pids as it prints them."""

    def __init__(self, env: dict[str, str], log: Path, *args: str) -> None:
        self.log = log
        path = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
        with log.open("a") as out:
            self.process = subprocess.Popen(
                ["bash", "scripts/stack", *args], cwd=ROOT, env={**env, "PATH": path, "STACK_SKIP_SETUP": "1"},
                stdout=out, stderr=out, start_new_session=True,
            )  # fmt: skip

    def pids(self) -> dict[str, int]:
        """The latest pid of each process the stack started (``stack: NAME pid N``)."""
        found: dict[str, int] = {}
        for line in self.log.read_text(errors="replace").splitlines():
            parts = line.split()
            if len(parts) == 4 and parts[0] == "stack:" and parts[2] == "pid":
                found[parts[1]] = int(parts[3])
        return found

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(10)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def listening(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
    except OSError:
        return False
    return True
