"""The processes a bench or a test starts and stops on this machine: a Redis server and a
PostgreSQL instance of their own, Celery workers, and ``scripts/stack`` (uvicorn servers,
the Celery pools and beat, HAProxy unless ``HAPROXY=none``).

The benches (``bench/chaos.py``, ``bench/bot_flood.py``) and the integration tests
(``tests/integration/processes.py``) share this one runner; it imports nothing of the
tests.
"""

from __future__ import annotations

import contextlib
import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    """A port the kernel has free now (from its ephemeral range)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def free_ports_from(low: int, high: int, count: int = 1) -> int:
    """The first of ``count`` consecutive free ports from ``low`` to ``high``: below the
    kernel's ephemeral range, so that no outgoing connection takes one meanwhile."""
    for first in range(low, high - count + 2):
        if all(_free(first + i) for i in range(count)):
            return first
    raise SystemExit(f"no {count} free port(s) from {low} to {high}")


def _free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def wait_until(predicate: Callable[[], object], timeout: float, interval: float = 0.1) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(interval)
    return bool(predicate())


def listening(port: int) -> bool:
    """Whether something accepts connections on ``port`` of 127.0.0.1."""
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
    except OSError:
        return False
    return True


def healthz(port: int) -> str:
    """``ok``, ``degraded``, ``fail``, or ``down`` (no answer within 3 s)."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=3) as response:
            return str(json.load(response)["status"])
    except urllib.error.HTTPError as error:
        try:
            return str(json.load(error)["status"])
        except ValueError:
            return "down"
    except (OSError, ValueError):
        return "down"


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


class RedisServer:
    """``redis-server`` on ``port`` (default: a free one) without persistence, in
    ``directory``; ``stop()`` (SIGKILL) and ``start()`` at will."""

    def __init__(self, directory: Path, binary: str, port: int | None = None) -> None:
        self.binary, self.directory = binary, directory
        self.port = port if port is not None else free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        out = (self.directory / "redis.log").open("a")
        self.process = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.directory)],
            stdout=out, stderr=out, start_new_session=True,
        )  # fmt: skip
        if not wait_until(lambda: listening(self.port), 15):
            raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)
        self.process = None


class PostgresServer:
    """A PostgreSQL instance in ``directory``/pg (as ``postgres`` when run as root)."""

    def __init__(self, directory: Path, bindir: str | None, port: int) -> None:
        self.bindir = Path(bindir) if bindir else None
        self.directory, self.port = directory / "pg", port
        self.user: str | None = None
        if os.geteuid() == 0:
            try:
                pwd.getpwnam("postgres")
            except KeyError:
                raise SystemExit(
                    "run as root, PostgreSQL needs a user 'postgres' to run as"
                ) from None
            self.user = "postgres"

    def _tool(self, name: str) -> str:
        path = str(self.bindir / name) if self.bindir else shutil.which(name)
        if not path:
            raise SystemExit(f"{name} is not on PATH (give --pg-bin)")
        return path

    def _run(self, *args: str) -> None:
        command = list(args)
        if self.user:
            command = ["runuser", "-u", self.user, "--", *command]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/thousand_chaos"

    def init(self) -> None:
        self.directory.mkdir()
        if self.user:
            shutil.chown(self.directory, self.user)
            shutil.chown(self.directory.parent, self.user)
        self._run(
            self._tool("initdb"),
            "-D",
            str(self.directory / "data"),
            "-U",
            "postgres",
            "-A",
            "trust",
        )

    def start(self) -> None:
        options = f"-p {self.port} -k {self.directory} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run(self._tool("pg_ctl"), "-D", str(self.directory / "data"), "-o", options,
                  "-l", str(self.directory / "log"), "-w", "start")  # fmt: skip

    def stop(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self._run(
                self._tool("pg_ctl"), "-D", str(self.directory / "data"), "-m", "fast", "-w", "stop"
            )


def start_worker(env: dict[str, str], log: Path, *args: str) -> subprocess.Popen[bytes]:
    """``celery -A config worker`` with ``args``, its output in ``log``."""
    command = [sys.executable, "-m", "celery", "-A", "config", "worker", *args]
    with log.open("a") as out:
        return subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=out, stderr=out, start_new_session=True
        )


def stop(process: subprocess.Popen[bytes]) -> None:
    """Kill ``process``'s whole group."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)


class Stack:
    """``scripts/stack`` with ``args`` in a process group of its own, on a database already
    migrated (``STACK_SKIP_SETUP``); its processes' pids as it prints them."""

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


class WebStack(Stack):
    """``scripts/stack --web N`` (2) without HAProxy, its servers on ``port`` onwards."""

    def __init__(self, env: dict[str, str], log: Path, port: int, web: int = 2) -> None:
        super().__init__({**env, "PORT": str(port), "HAPROXY": "none"}, log, "--web", str(web))
        self.port = port
        self.ports = [port + n for n in range(web)]
