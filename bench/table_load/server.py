"""The server stack the bench drives: its processes, started and stopped together."""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench import haproxy
from bench.stack import ROOT
from bench.table_load.measure import descendants


class Children:
    """Every process this script starts, each in its own process group, stopped on exit
    (normal, exception, Ctrl-C or SIGTERM): SIGTERM to the group, then SIGKILL."""

    def __init__(self) -> None:
        self.procs: list[tuple[str, subprocess.Popen[Any]]] = []

    def start(self, name: str, args: list[str], **kwargs: Any) -> subprocess.Popen[Any]:
        proc = subprocess.Popen(args, start_new_session=True, **kwargs)
        self.procs.append((name, proc))
        return proc

    def stop(self, proc: subprocess.Popen[Any], timeout: float = 10.0) -> None:
        if proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        else:
            # The leader is gone; make sure nothing of its group lingers.
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
        self.procs = [(n, p) for n, p in self.procs if p is not proc]

    def stop_all(self) -> None:
        for _, proc in reversed(list(self.procs)):
            self.stop(proc)


@dataclass
class Stack:
    server: list[subprocess.Popen[Any]]
    base_urls: list[str]  # the server processes' own addresses
    others: list[subprocess.Popen[Any]]
    balancer: subprocess.Popen[Any] | None = None  # HAProxy (--balancer haproxy)
    balancer_url: str = ""

    @property
    def client_urls(self) -> list[str]:
        """Where the clients connect: HAProxy's one address, else the servers'."""
        return [self.balancer_url] if self.balancer is not None else self.base_urls


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_http(url: str, proc: subprocess.Popen[Any], log: Path, timeout: float = 60.0) -> None:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited (code {proc.returncode}); its log:\n{tail(log)}")
        try:
            with opener.open(url, timeout=2):
                return
        except Exception:
            time.sleep(0.3)
    raise RuntimeError(f"the server did not answer {url} in {timeout:.0f} s; its log:\n{tail(log)}")


def tail(path: Path, lines: int = 30) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


def read_json_line(proc: subprocess.Popen[str], timeout: float) -> str:
    """The next JSON line of a load generator (other lines are passed through)."""
    import selectors

    assert proc.stdout is not None
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0 or not sel.select(left):
            raise RuntimeError(f"the load generator said nothing for {timeout:.0f} s")
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the load generator exited (code {proc.wait()})")
        if line.startswith("{"):
            return line
        print("  loadgen:", line.rstrip(), flush=True)


class Servers:
    """The server stack of a run: uvicorn (N worker processes), a Celery worker and beat,
    started and stopped by :class:`~bench.table_load.run.Bench`."""

    args: argparse.Namespace
    children: Children
    tmp: Path
    env: dict[str, str]

    def stack(self, workers: int) -> Stack:
        py = sys.executable
        uvicorn = [py, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1"]
        uvicorn += ["--no-access-log", "--log-level", "warning", "--lifespan", "on"]
        if not self.args.deflate:
            uvicorn += ["--ws-per-message-deflate", "false"]
        if self.args.ws:
            uvicorn += ["--ws", self.args.ws]
        server = []
        bases = []
        if self.args.server == "workers" or workers == 1:
            port = free_port()
            log = self.tmp / f"uvicorn-{port}.log"
            args = (
                uvicorn
                + ["--port", str(port)]
                + (["--workers", str(workers)] if workers > 1 else [])
            )
            server.append(
                self.children.start(
                    "uvicorn",
                    args,
                    cwd=ROOT,
                    env=self.env,
                    stdout=log.open("w"),
                    stderr=subprocess.STDOUT,
                )
            )
            bases.append(f"http://127.0.0.1:{port}")
        else:
            for _ in range(workers):
                port = free_port()
                log = self.tmp / f"uvicorn-{port}.log"
                server.append(
                    self.children.start(
                        "uvicorn",
                        uvicorn + ["--port", str(port)],
                        cwd=ROOT,
                        env=self.env,
                        stdout=log.open("w"),
                        stderr=subprocess.STDOUT,
                    )
                )
                bases.append(f"http://127.0.0.1:{port}")
        others = []
        if not self.args.no_celery:
            log = self.tmp / "celery.log"
            others.append(
                self.children.start(
                    "celery worker",
                    [
                        py,
                        "-m",
                        "celery",
                        "-A",
                        "config",
                        "worker",
                        "--loglevel=WARNING",
                        "--concurrency=1",
                    ],
                    cwd=ROOT,
                    env=self.env,
                    stdout=log.open("w"),
                    stderr=subprocess.STDOUT,
                )
            )
            log = self.tmp / "beat.log"
            others.append(
                self.children.start(
                    "celery beat",
                    [
                        py,
                        "-m",
                        "celery",
                        "-A",
                        "config",
                        "beat",
                        "--loglevel=WARNING",
                        "--schedule",
                        str(self.tmp / "beat-schedule"),
                    ],
                    cwd=ROOT,
                    env=self.env,
                    stdout=log.open("w"),
                    stderr=subprocess.STDOUT,
                )
            )
        for proc, base in zip(server, bases, strict=True):
            port = int(base.rsplit(":", 1)[1])
            wait_http(base + "/healthz", proc, self.tmp / f"uvicorn-{port}.log")
        # Let uvicorn's workers all come up (the supervisor answers as soon as one does).
        time.sleep(2.0)
        stack = Stack(server=server, base_urls=bases, others=others)
        if self.args.balancer == "haproxy":
            self.haproxy(stack)
        return stack

    def haproxy(self, stack: Stack) -> None:
        """HAProxy with deploy/haproxy.cfg in front of the stack's server ports (both
        backends), on a free local port; back once every server passed a health check."""
        binary = haproxy.binary()
        if binary is None:
            raise SystemExit("--balancer haproxy needs HAProxy (apt-get install haproxy)")
        port = free_port()
        config = self.tmp / f"haproxy-{port}.cfg"
        stats = self.tmp / f"haproxy-{port}.sock"
        # Room for every table's three sockets twice over (a finished table's players
        # open their next table's while the old ones close) and pages: two descriptors a
        # connection, within the limit raise_fd_limit gave this process and its children.
        tables = max(self.args.tables + self.args.one_worker, default=0)
        maxconn = 6 * tables + 1000
        config.write_text(
            haproxy.local_config(
                [int(b.rsplit(":", 1)[1]) for b in stack.base_urls],
                port,
                maxconn=maxconn,
                stats_socket=stats,
            )
        )
        log = self.tmp / f"haproxy-{port}.log"
        proc = self.children.start(
            "haproxy",
            [binary, "-db", "-f", str(config)],
            stdout=log.open("w"),
            stderr=subprocess.STDOUT,
        )
        stack.balancer, stack.balancer_url = proc, f"http://127.0.0.1:{port}"
        try:
            haproxy.wait_servers_up(proc, stats, len(stack.base_urls), timeout=60)
        except RuntimeError as exc:
            raise RuntimeError(f"{exc}; its log:\n{tail(log)}") from None
        print(
            f"[bench] HAProxy on {stack.balancer_url} (maxconn {maxconn}, config {config}): "
            f"servers {', '.join(stack.base_urls)} up in both backends",
            flush=True,
        )

    def stop_stack(self, stack: Stack) -> None:
        balancer = [stack.balancer] if stack.balancer is not None else []
        for proc in balancer + stack.server + stack.others:
            self.children.stop(proc)

    def server_pids(self, stack: Stack) -> list[int]:
        return [p for proc in stack.server for p in descendants(proc.pid)]
