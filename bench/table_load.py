"""Live tables under load: the whole stack, driven over real websockets.

This script starts everything itself on this machine (PostgreSQL and Redis must already
run): a fresh database (``thousand_bench`` by default, dropped and migrated at start), an
ASGI server with two worker processes, a Celery worker and Celery beat, all with
``DATABASE_URL``/``REDIS_URL`` pointing at the bench's own database and Redis db. Then,
for each configuration, it creates N tables of three human accounts (token auth) through
the services, starts them, and hands them to a load generator in its own process(es),
which plays them over ``ws/tables/<id>/`` using only docs/protocol.md: each simulated
player picks a random action from its view's ``legal`` when it is its turn.

Printed per configuration (one table at the end):

- actions/s: actions whose update had reached all three clients of their table inside
  the measurement window, divided by the window;
- send-to-view latency, median and 99th percentile: from a client's send of an action to
  the moment all three clients of the table have received the ``update`` with the new
  version (one clock: the three clients of a table live in one load-generator process);
- stalled tables: tables that went ``--stall`` seconds (default 5) or more without
  progress during the window while a player was to act;
- matches finished in the window: the three players of a finished table at once get a
  new table through the REST API (create, join, join, start) and play on;
- errors received (any ``error`` frame; none are expected);
- CPU: per action, of the server's processes (its kernel share in brackets) and of the
  PostgreSQL backends serving the bench's database; and CPU seconds per second of the
  server, those backends, the load generator(s) and the whole machine (2.00 on two cores
  means saturated: on a shared machine, by everyone's work).

The default run is short (3 s warm-up, 15 s windows): 10, 100 and 300 tables, closed loop
(a player acts as soon as it is its turn) and with a 1-second think time, then the
300-table closed loop again with one ASGI worker process.

Run: ``python -m bench.table_load`` (about five minutes)
     ``python -m bench.table_load --tables 10 --think 0 --one-worker ''`` (a quick check)
     ``python -m bench.table_load --window 60 --warmup 10`` (longer windows)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import random
import resource
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from array import array
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent

from bench.guard import database_free, redis_free  # noqa: E402

STALL_SECONDS = 5.0
READY_TIMEOUT = 120.0


# ======================================================================================
# The load generator: its own process, no Django. Speaks docs/protocol.md only.
# ======================================================================================


@dataclass
class Spec:
    """What one load-generator process plays (a JSON file written by the orchestrator)."""

    base_urls: list[str]  # http://host:port of each server process (clients spread over them)
    tables: list[dict[str, Any]]  # {"id": …, "tokens": [seat 0, seat 1, seat 2]}
    think: float
    warmup: float
    window: float
    stall: float
    seed: int
    deflate: bool
    target: int
    spread: str = "seats"  # "seats": a table's clients round-robin over the processes; "tables"


@dataclass
class Play:
    """One table being played: the three clients and the bookkeeping of its versions."""

    table_id: int
    tokens: list[str]
    receipts: dict[int, int] = field(default_factory=dict)  # version -> clients that have it
    sent: dict[int, float] = field(default_factory=dict)  # version expected -> send time
    last_progress: float = 0.0
    max_gap: float = 0.0
    moved: bool = False  # progress seen inside the window
    created: float = field(default_factory=time.monotonic)
    over: bool = False
    tasks: list[asyncio.Task[None]] = field(default_factory=list)
    sockets: list[Any] = field(default_factory=list)
    thought: bool = False  # the table's first think time is behind it


class LoadGen:
    def __init__(self, spec: Spec) -> None:
        self.spec = spec
        self.rng = random.Random(spec.seed)
        self.go = asyncio.Event()
        self.t_go = 0.0
        self.start = self.end = float("inf")
        # 8 bytes a sample (a soak keeps hundreds of thousands: the generator's own memory
        # must not be what grows).
        self.latencies = array("d")
        self.latency_at = array("d")  # seconds into the window of each latency sample
        self.update_bytes = 0  # bytes of the update frames received inside the window
        self.completed = 0  # versions that reached all three clients inside the window
        self.sends = 0
        self.errors: dict[str, int] = {}
        self.states_in_window = 0
        self.gaps = 0  # a client saw a version jump by more than one
        self.finished = 0
        self.replaced = 0
        self.replace_failures: list[str] = []
        self.connect_failures: list[str] = []
        self.plays: list[Play] = []  # the tables being played (a finished one is retired)
        self.retired_max_gap = 0.0  # the longest pause of the retired tables
        self.stalled: set[int] = set()
        self.connections = 0
        self.opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))

    # -- the clients ---------------------------------------------------------------------

    def base_for(self, play: Play, seat: int) -> str:
        bases = self.spec.base_urls
        if self.spec.spread == "tables":
            return bases[play.table_id % len(bases)]  # a table's three clients together
        return bases[(play.table_id * 3 + seat) % len(bases)]

    async def connect(self, play: Play, seat: int) -> Any:
        import websockets

        base = self.base_for(play, seat)
        url = "ws" + base[4:] + f"/ws/tables/{play.table_id}/"
        for attempt in range(5):
            try:
                return await websockets.connect(
                    url,
                    additional_headers={
                        "Authorization": f"Token {play.tokens[seat]}",
                        "Origin": base,
                    },
                    compression="deflate" if self.spec.deflate else None,
                    proxy=None,
                    max_size=2**22,
                    max_queue=None,
                    open_timeout=30,
                    ping_interval=None,
                )
            except (OSError, TimeoutError, websockets.exceptions.WebSocketException) as exc:
                if attempt == 4:
                    raise
                self.connect_failures.append(f"{type(exc).__name__}: {exc}")
                await asyncio.sleep(0.5 * (attempt + 1))
        raise AssertionError("unreachable")

    async def client(self, play: Play, seat: int, ws: Any) -> None:
        """Read every frame; act (after the think time) whenever ``legal`` is not empty."""
        acted_at = -1  # the version we last acted at
        seen = -1  # the last version this client saw
        loads = json.loads
        clock = time.monotonic
        try:
            async for raw in ws:
                now = clock()
                msg = loads(raw)
                kind = msg["type"]
                if kind == "update" or kind == "state":
                    version = msg["version"]
                    if kind == "state":
                        # The first frame of a connection is its state; any other state
                        # (after stale_version, sync or a seat change) is unexpected here.
                        if seen >= 0 and self.start <= now <= self.end:
                            self.states_in_window += 1
                    else:
                        if self.start <= now <= self.end:
                            self.update_bytes += len(raw)
                        if version <= seen:
                            continue  # already held (it can follow the state on connect)
                        if seen >= 0 and version != seen + 1:
                            self.gaps += 1
                        self.received(play, version, now)
                    seen = version
                    status = msg["table"]["status"]
                    if status != "playing":
                        if status == "finished" and kind == "update":
                            self.match_over(play)
                        return
                    view = msg["view"]
                    legal = view["legal"] if view else None
                    if legal and version > acted_at:
                        acted_at = version
                        action = legal[self.rng.randrange(len(legal))]
                        asyncio.get_running_loop().create_task(self.act(play, ws, version, action))
                elif kind == "error":
                    self.errors[msg["code"]] = self.errors.get(msg["code"], 0) + 1
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a dropped connection: the table will show as stalled
            key = f"client: {type(exc).__name__}"
            self.errors[key] = self.errors.get(key, 0) + 1

    async def act(self, play: Play, ws: Any, version: int, action: dict[str, Any]) -> None:
        if not self.go.is_set():
            await self.go.wait()
        if self.spec.think:
            pause = self.spec.think
            if not play.thought:
                # Players do not all start thinking at the same instant: each table's
                # first pause is longer by a random part of one think time, so the
                # tables' actions spread over the second instead of coming in waves of N.
                play.thought = True
                pause += self.rng.uniform(0, self.spec.think)
            await asyncio.sleep(pause)
        text = json.dumps(
            {
                "type": "action",
                "id": f"{play.table_id}-{version}",
                "version": version,
                "action": action,
            }
        )
        play.sent[version + 1] = time.monotonic()
        self.sends += 1
        try:
            await ws.send(text)
        except Exception as exc:
            key = f"send: {type(exc).__name__}"
            self.errors[key] = self.errors.get(key, 0) + 1

    def received(self, play: Play, version: int, now: float) -> None:
        count = play.receipts.get(version, 0) + 1
        if count < 3:
            play.receipts[version] = count
            return
        # All three clients have this version.
        play.receipts.pop(version, None)
        for old in [v for v in play.receipts if v < version]:
            del play.receipts[old]
        if self.go.is_set():
            self.progress(play, now)
        sent = play.sent.pop(version, None)
        if self.start <= now <= self.end:
            self.completed += 1
            if sent is not None and sent >= self.start:
                self.latencies.append(now - sent)
                self.latency_at.append(now - self.start)

    def progress(self, play: Play, now: float) -> None:
        gap = now - max(play.last_progress, self.t_go)
        if now >= self.start:
            play.max_gap = max(play.max_gap, gap)
            play.moved = play.moved or now <= self.end
        play.last_progress = now

    def match_over(self, play: Play) -> None:
        if play.over:
            return
        play.over = True
        now = time.monotonic()
        if self.start <= now <= self.end:
            self.finished += 1
        if now < self.end:
            asyncio.get_running_loop().create_task(self.replace(play))

    # -- a new table for the players of a finished one (REST API) ------------------------

    def rest(
        self, base: str, token: str, path: str, body: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        request = urllib.request.Request(
            base + path,
            data=json.dumps(body or {}).encode(),
            headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
            method="POST",
        )
        with self.opener.open(request, timeout=30) as response:
            return json.loads(response.read())

    def new_table(self, tokens: list[str]) -> int:
        base = self.spec.base_urls[0]
        body: dict[str, Any] = {"players": 3, "move_seconds": 600}
        if self.spec.target:
            body["options"] = {"target": self.spec.target, "barrel": False}
        table = self.rest(base, tokens[0], "/api/v1/tables/", body)
        for token in tokens[1:]:
            self.rest(base, token, f"/api/v1/tables/{table['id']}/join/")
        self.rest(base, tokens[0], f"/api/v1/tables/{table['id']}/start/")
        return int(table["id"])

    async def replace(self, play: Play) -> None:
        for task in play.tasks:
            if task is not asyncio.current_task():
                task.cancel()
        # The players leave the finished table's page, as a browser would: its sockets
        # close (left open, each server kept every finished table's three connections).
        for ws in play.sockets:
            with contextlib.suppress(Exception):
                await ws.close()
        play.sockets = []
        self.retire(play)
        try:
            # The seats of the REST answer are in join order: seat 0 the creator.
            table_id = await asyncio.to_thread(self.new_table, play.tokens)
            fresh = Play(table_id=table_id, tokens=play.tokens, last_progress=time.monotonic())
            await self.open(fresh)
            self.replaced += 1
        except Exception as exc:
            self.replace_failures.append(f"{type(exc).__name__}: {exc}")

    def retire(self, play: Play) -> None:
        """A finished table leaves the bookkeeping (so that a soak's generator does not
        grow with every match); what the report needs of it is kept."""
        if play.max_gap >= self.spec.stall:
            self.stalled.add(play.table_id)
        self.retired_max_gap = max(self.retired_max_gap, play.max_gap)
        with contextlib.suppress(ValueError):
            self.plays.remove(play)

    async def open(self, play: Play) -> None:
        sockets = await asyncio.gather(*(self.connect(play, seat) for seat in range(3)))
        self.connections += 3
        self.plays.append(play)
        play.sockets = list(sockets)
        loop = asyncio.get_running_loop()
        play.tasks = [
            loop.create_task(self.client(play, seat, ws)) for seat, ws in enumerate(sockets)
        ]

    # -- the run ---------------------------------------------------------------------------

    async def watch(self) -> None:
        """Every half second: tables without progress for ``stall`` seconds."""
        while True:
            await asyncio.sleep(0.5)
            now = time.monotonic()
            if now > self.end:
                return
            for play in self.plays:
                if play.over or now < self.start:
                    continue
                self.progress_probe(play, now)

    def progress_probe(self, play: Play, now: float) -> None:
        gap = now - max(play.last_progress, self.t_go)
        play.max_gap = max(play.max_gap, gap)

    async def run(self) -> dict[str, Any]:
        limit = asyncio.Semaphore(64)

        async def open_one(entry: dict[str, Any]) -> None:
            async with limit:
                await self.open(Play(table_id=entry["id"], tokens=entry["tokens"]))

        t0 = time.monotonic()
        await asyncio.gather(*(open_one(entry) for entry in self.spec.tables))
        connect_seconds = time.monotonic() - t0
        print(json.dumps({"ready": True, "connect_seconds": connect_seconds}), flush=True)
        # Wait for the orchestrator's "go" (all generators connected).
        await asyncio.to_thread(sys.stdin.readline)
        self.t_go = time.monotonic()
        self.start = self.t_go + self.spec.warmup
        self.end = self.start + self.spec.window
        for play in self.plays:
            play.last_progress = self.t_go
        self.go.set()
        watcher = asyncio.get_running_loop().create_task(self.watch())
        await asyncio.sleep(self.spec.warmup + self.spec.window + 0.6)
        await watcher
        for play in self.plays:
            # Stalled: ``stall`` seconds without progress seen in the window (a won table
            # stops counting: its players have moved to a new one).
            if play.max_gap >= self.spec.stall:
                self.stalled.add(play.table_id)
        result = {
            "tables": len(self.spec.tables),
            "connections": self.connections,
            "connect_seconds": round(connect_seconds, 2),
            "window": self.spec.window,
            "completed": self.completed,
            "sends": self.sends,
            "latencies": self.latencies.tolist(),
            "latency_at": self.latency_at.tolist(),
            "update_bytes": self.update_bytes,
            "errors": self.errors,
            "states_in_window": self.states_in_window,
            "gaps": self.gaps,
            "finished": self.finished,
            "replaced": self.replaced,
            "replace_failures": self.replace_failures[:5],
            "connect_retries": len(self.connect_failures),
            "stalled": sorted(self.stalled),
            "never_moved": sum(
                1 for p in self.plays if not p.moved and not p.over and p.created < self.start
            ),
            "max_gap": max([self.retired_max_gap, *(p.max_gap for p in self.plays)]),
            "cpu": time.process_time(),
        }
        for play in self.plays:
            for task in play.tasks:
                task.cancel()
        return result


def loadgen_main(spec_path: str) -> None:
    spec = Spec(**json.loads(Path(spec_path).read_text()))
    _raise_fd_limit()
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    result = asyncio.run(LoadGen(spec).run())
    # The result (every latency sample) can be far larger than a pipe's buffer: it goes
    # into a file beside the spec, and stdout only says where.
    out = Path(spec_path).with_suffix(".result.json")
    out.write_text(json.dumps(result))
    print(json.dumps({"result_file": str(out)}), flush=True)
    os._exit(0)  # the sockets close with the process; no need to wait for 900 close handshakes


# ======================================================================================
# The orchestrator: database, server processes, tables, load generators, the report.
# ======================================================================================


def _raise_fd_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = hard if hard != resource.RLIM_INFINITY else 65536
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))


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
    base_urls: list[str]
    others: list[subprocess.Popen[Any]]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_http(url: str, proc: subprocess.Popen[Any], log: Path, timeout: float = 60.0) -> None:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(
                f"the server exited (code {proc.returncode}); its log:\n{_tail(log)}"
            )
        try:
            with opener.open(url, timeout=2):
                return
        except Exception:
            time.sleep(0.3)
    raise RuntimeError(
        f"the server did not answer {url} in {timeout:.0f} s; its log:\n{_tail(log)}"
    )


def _tail(path: Path, lines: int = 30) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


def _descendants(pid: int) -> list[int]:
    """``pid`` and every process below it (read from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(entry))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(children.get(p, []))
    return out


def _cpu_seconds(pids: list[int]) -> float:
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / tick


def _sys_seconds(pids: list[int]) -> float:
    """The kernel's share of :func:`_cpu_seconds` (system calls: sockets, epoll)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            total += int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[12])
        except OSError:
            continue
    return total / tick


def _kernel_counts(pids: list[int]) -> dict[str, int]:
    """``read``/``write`` system calls (``/proc/<pid>/io``: the event loop's websockets,
    Redis connection and wake-up pipe; libpq's ``recv``/``send`` to PostgreSQL are not
    counted there) and context switches, voluntary (a thread going to sleep: epoll, a
    lock, the thread pool's queue) and not (preempted), summed over the processes and
    their threads: the work of waking up, which grows when the same actions are spread
    over more processes (docs/benchmarks.md §4)."""
    out = {"read": 0, "write": 0, "voluntary": 0, "preempted": 0}
    for pid in pids:
        try:
            io = dict(line.split(": ") for line in Path(f"/proc/{pid}/io").read_text().splitlines())
            out["read"] += int(io["syscr"])
            out["write"] += int(io["syscw"])
            for task in Path(f"/proc/{pid}/task").iterdir():
                for line in (task / "status").read_text().splitlines():
                    if line.startswith("voluntary_ctxt_switches:"):
                        out["voluntary"] += int(line.split()[1])
                    elif line.startswith("nonvoluntary_ctxt_switches:"):
                        out["preempted"] += int(line.split()[1])
        except (OSError, KeyError, ValueError):
            continue
    return out


def _db_backends(name: str) -> dict[int, float]:
    """CPU seconds so far of each PostgreSQL backend serving database ``name`` (found by
    its process title, ``postgres: … <user> <database> <host>(<port>) …``)."""
    out = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            title = (
                Path(f"/proc/{entry}/cmdline")
                .read_bytes()
                .replace(b"\0", b" ")
                .decode(errors="replace")
            )
        except OSError:
            continue
        if title.startswith("postgres:") and f" {name} " in title:
            out[int(entry)] = _cpu_seconds([int(entry)])
    return out


def _db_cpu(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU used between two :func:`_db_backends` readings (a backend that appeared in
    between counts from zero; one that ended in between is lost: the pool keeps them)."""
    return sum(cpu - before.get(pid, 0.0) for pid, cpu in after.items())


def _redis_pids() -> list[int]:
    """The redis-server processes of this machine (their CPU includes every other user
    of the same server: an upper bound for this run's share)."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError):
                if Path(f"/proc/{entry}/cmdline").read_bytes().startswith(b"redis-server"):
                    out.append(int(entry))
    return out


def _db_rows(name: str) -> dict[str, int]:
    """The database's own counters (pg_stat_database: this database only, whatever else
    the server runs): transactions committed and rows inserted, updated, deleted."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT xact_commit, tup_inserted, tup_updated, tup_deleted FROM pg_stat_database"
            " WHERE datname = %s",
            [name],
        )
        row = cursor.fetchone()
    return dict(zip(("commits", "inserted", "updated", "deleted"), row, strict=True))


def _rss_mb(pid: int, field: str = "VmRSS:") -> float:
    """Resident memory of a process in MB (0 when it has gone)."""
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field):
                return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def _p99_per_period(
    timed: list[tuple[float, float]], period: float, window: float
) -> list[dict[str, float]]:
    """Median and p99 latency (ms) of each ``period`` seconds of the window."""
    out = []
    start = 0.0
    while start < window:
        part = sorted(x for at, x in timed if start <= at < start + period)
        if part:
            out.append(
                {
                    "from_min": start / 60,
                    "samples": len(part),
                    "p50_ms": 1000 * _quantile(part, 0.5),
                    "p99_ms": 1000 * _quantile(part, 0.99),
                    "max_ms": 1000 * part[-1],
                }
            )
        start += period
    return out


def _machine_busy() -> tuple[float, float]:
    """(busy, total) jiffies of the whole machine."""
    parts = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = parts[3] + parts[4]
    return sum(parts) - idle, sum(parts)


def _connections_per_process(port_pids: dict[int, list[int]]) -> dict[int, int]:
    """Established TCP connections accepted on each server port, by the process (leader
    pid of the server worker) that holds them: how the kernel spread the clients."""
    ports = set(port_pids)
    inodes: dict[str, int] = {}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError):
            for line in Path(table).read_text().splitlines()[1:]:
                cols = line.split()
                local_port = int(cols[1].rsplit(":", 1)[1], 16)
                if local_port in ports and cols[3] == "01":
                    inodes[cols[9]] = local_port
    counts: dict[int, int] = {}
    for pids in port_pids.values():
        for pid in pids:
            n = 0
            with contextlib.suppress(OSError):
                for fd in os.listdir(f"/proc/{pid}/fd"):
                    with contextlib.suppress(OSError):
                        link = os.readlink(f"/proc/{pid}/fd/{fd}")
                        if link.startswith("socket:[") and link[8:-1] in inodes:
                            n += 1
            if n:
                counts[pid] = n
    return counts


class Bench:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.children = Children()
        self.tmp = Path(tempfile.mkdtemp(prefix="table-load-"))
        db_url = args.database_url
        self.env = {
            **os.environ,
            "DATABASE_URL": db_url,
            "REDIS_URL": args.redis_url,
            "CELERY_BROKER_URL": args.redis_url,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DJANGO_DEBUG": "false",
            # A key of this run's own: the server refuses to start without one (DEBUG off).
            "DJANGO_SECRET_KEY": os.environ.get("DJANGO_SECRET_KEY") or secrets.token_urlsafe(50),
            "DJANGO_STATIC_MANIFEST": "false",
            "LOG_LEVEL": "WARNING",
            "GAMES_SCHEDULER": "celery",
            # Every client of the bench connects from 127.0.0.1 (one person each).
            "GAMES_WS_MAX_PER_ADDRESS": "0",
            "PYTHONUNBUFFERED": "1",
        }
        if args.retention is not None:
            self.env["GAMES_LOG_RETENTION_SECONDS"] = str(args.retention)
        self.users: list[Any] = []
        self.tokens: list[str] = []

    # -- set-up -------------------------------------------------------------------------------

    def database(self) -> None:
        import psycopg
        from psycopg import sql

        parts = urlsplit(self.args.database_url)
        name = parts.path.lstrip("/")
        if not name.startswith("thousand_bench"):
            raise SystemExit(
                f"refusing to drop {name!r}: the bench database's name starts with thousand_bench"
            )
        admin = parts._replace(scheme="postgresql", path="/postgres").geturl()
        redis_free(self.args.redis_url)
        with psycopg.connect(admin, autocommit=True, connect_timeout=5) as conn:
            database_free(conn, name)
            conn.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
            cwd=ROOT,
            env=self.env,
            check=True,
        )
        import redis

        redis.Redis.from_url(self.args.redis_url).flushdb()

    def django(self) -> None:
        os.environ.update(self.env)
        import django

        django.setup()

    def accounts(self, count: int) -> None:
        """``count`` players with API tokens (one password hash for all: hashing is slow)."""
        from django.contrib.auth import get_user_model
        from django.contrib.auth.hashers import make_password
        from rest_framework.authtoken.models import Token

        user_model = get_user_model()
        password = make_password("bench-password")
        have = len(self.users)
        if count <= have:
            return
        fresh = user_model.objects.bulk_create(
            [user_model(username=f"bench{i}", password=password) for i in range(have, count)]
        )
        tokens = Token.objects.bulk_create([Token(user=u, key=Token.generate_key()) for u in fresh])
        self.users += fresh
        self.tokens += [t.key for t in tokens]

    def tables(self, n: int) -> list[dict[str, Any]]:
        """N started tables of three people: create, join, join, start (the services)."""
        from games import services

        self.accounts(3 * n)
        out = []
        for i in range(n):
            a, b, c = self.users[3 * i : 3 * i + 3]
            options = {"target": self.args.target, "barrel": False} if self.args.target else None
            table = services.table_create(user=a, players=3, move_seconds=600, options=options)
            services.table_join(table=table, user=b)
            services.table_join(table=table, user=c)
            services.table_start(table=table, user=a)
            out.append({"id": table.pk, "tokens": self.tokens[3 * i : 3 * i + 3]})
        return out

    def tidy(self) -> None:
        """End every table still playing, so that no clock of an old configuration runs
        out (and plays timeouts) during the next one."""
        from games import services
        from games.models import Table

        for table_id in Table.objects.filter(status=Table.Status.PLAYING).values_list(
            "pk", flat=True
        ):
            with contextlib.suppress(Exception):
                services.table_abandon(table=table_id)

    # -- the stack ---------------------------------------------------------------------------

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
            port = _free_port()
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
                port = _free_port()
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
            _wait_http(base + "/healthz", proc, self.tmp / f"uvicorn-{port}.log")
        # Let uvicorn's workers all come up (the supervisor answers as soon as one does).
        time.sleep(2.0)
        return Stack(server=server, base_urls=bases, others=others)

    def stop_stack(self, stack: Stack) -> None:
        for proc in stack.server + stack.others:
            self.children.stop(proc)

    def server_pids(self, stack: Stack) -> list[int]:
        return [p for proc in stack.server for p in _descendants(proc.pid)]

    # -- one configuration ----------------------------------------------------------------------

    def measure(
        self, stack: Stack, n: int, think: float, workers: int, label: str
    ) -> dict[str, Any]:
        t_setup = time.monotonic()
        tables = self.tables(n)
        setup_seconds = time.monotonic() - t_setup
        gens = max(1, min(self.args.loadgens, n))
        procs = []
        for g in range(gens):
            spec = Spec(
                base_urls=stack.base_urls,
                tables=tables[g::gens],
                think=think,
                warmup=self.args.warmup,
                window=self.args.window,
                stall=self.args.stall,
                seed=self.args.seed * 1000 + g,
                deflate=self.args.deflate,
                spread=self.args.spread,
                target=self.args.target,
            )
            path = self.tmp / f"spec-{label}-{g}.json"
            path.write_text(json.dumps(spec.__dict__))
            procs.append(
                self.children.start(
                    "load generator",
                    [sys.executable, "-m", "bench.table_load", "--loadgen", str(path)],
                    cwd=ROOT,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=(self.tmp / f"loadgen-{label}-{g}.log").open("w"),
                    text=True,
                )
            )
        connect = []
        for proc in procs:
            line = _readline(proc, READY_TIMEOUT)
            connect.append(json.loads(line)["connect_seconds"])
        spread = _connections_per_process(
            {int(b.rsplit(":", 1)[1]): self.server_pids(stack) for b in stack.base_urls}
        )
        for proc in procs:
            assert proc.stdin is not None
            proc.stdin.write("go\n")
            proc.stdin.flush()
        time.sleep(self.args.warmup)
        server = self.server_pids(stack)
        others = [p for proc in stack.others for p in _descendants(proc.pid)]
        gen_pids = [p.pid for p in procs]
        db_name = urlsplit(self.args.database_url).path.lstrip("/")
        rows_before = _db_rows(db_name)
        redis_pids = _redis_pids()
        redis_before = _cpu_seconds(redis_pids)
        before = (
            _cpu_seconds(server),
            _cpu_seconds(others),
            _cpu_seconds(gen_pids),
            _machine_busy(),
            _sys_seconds(server),
            _db_backends(db_name),
            _kernel_counts(server),
        )
        if self.args.py_spy and label == self.args.profile:
            self.profile(server, label)
        samples: list[dict[str, Any]] = []
        if self.args.sample:
            self.soak(samples, stack, gen_pids, db_name)
        else:
            time.sleep(self.args.window)
        rows_after = _db_rows(db_name)
        redis_after = _cpu_seconds(redis_pids)
        after = (
            _cpu_seconds(server),
            _cpu_seconds(others),
            _cpu_seconds(gen_pids),
            _machine_busy(),
            _sys_seconds(server),
            _db_backends(db_name),
            _kernel_counts(server),
        )
        results = []
        for proc in procs:
            line = _readline(proc, self.args.window + 60)
            results.append(json.loads(Path(json.loads(line)["result_file"]).read_text()))
            proc.wait(30)
            self.children.stop(proc)
        self.tidy()
        window = self.args.window
        busy = (
            (after[3][0] - before[3][0])
            / max(1, after[3][1] - before[3][1])
            * (os.cpu_count() or 1)
        )
        lat = sorted(x for r in results for x in r["latencies"])
        timed = sorted(
            (at, x) for r in results for at, x in zip(r["latency_at"], r["latencies"], strict=True)
        )
        errors: dict[str, int] = {}
        for r in results:
            for k, v in r["errors"].items():
                errors[k] = errors.get(k, 0) + v
        return {
            "label": label,
            "tables": n,
            "think": think,
            "workers": workers,
            "actions_per_s": sum(r["completed"] for r in results) / window,
            "p50_ms": 1000 * _quantile(lat, 0.5),
            "p99_ms": 1000 * _quantile(lat, 0.99),
            "max_ms": 1000 * lat[-1] if lat else float("nan"),
            "samples": len(lat),
            "stalled": sum(len(r["stalled"]) for r in results),
            "never_moved": sum(r["never_moved"] for r in results),
            "max_gap": max(r["max_gap"] for r in results),
            "finished": sum(r["finished"] for r in results),
            "replaced": sum(r["replaced"] for r in results),
            "replace_failures": [f for r in results for f in r["replace_failures"]],
            "errors": errors,
            "states_in_window": sum(r["states_in_window"] for r in results),
            "gaps": sum(r["gaps"] for r in results),
            "connect_retries": sum(r["connect_retries"] for r in results),
            "cpu_server": (after[0] - before[0]) / window,
            "sys_ms_per_action": 1000
            * (after[4] - before[4])
            / max(1, sum(r["completed"] for r in results)),
            "db_ms_per_action": 1000
            * _db_cpu(before[5], after[5])
            / max(1, sum(r["completed"] for r in results)),
            "cpu_db": _db_cpu(before[5], after[5]) / window,
            "cpu_ms_per_action": 1000
            * (after[0] - before[0])
            / max(1, sum(r["completed"] for r in results)),
            "cpu_celery": (after[1] - before[1]) / window,
            "cpu_loadgen": (after[2] - before[2]) / window,
            "cpu_machine": busy,
            "setup_s": setup_seconds,
            "connect_s": max(connect),
            "spread": sorted(spread.values(), reverse=True),
            "loadgens": gens,
            "samples_taken": samples,
            "redis_ms_per_action": 1000
            * (redis_after - redis_before)
            / max(1, sum(r["completed"] for r in results)),
            "update_bytes_per_action": sum(r["update_bytes"] for r in results)
            / max(1, sum(r["completed"] for r in results)),
            "db_rows_per_action": {
                k: (rows_after[k] - rows_before[k]) / max(1, sum(r["completed"] for r in results))
                for k in rows_after
            },
            "p99_per_period": _p99_per_period(timed, self.args.period, window),
            "kernel_per_action": {
                k: (after[6][k] - before[6][k]) / max(1, sum(r["completed"] for r in results))
                for k in after[6]
            },
        }

    # -- the soak: resident memory and the log's size every --sample seconds -------------------

    def soak(
        self, samples: list[dict[str, Any]], stack: Stack, gen_pids: list[int], db_name: str
    ) -> None:
        start = time.monotonic()
        end = start + self.args.window
        due = start
        while True:
            now = time.monotonic()
            if now >= end:
                return
            if now >= due:
                sample = self.sample(stack, gen_pids, db_name, now - start)
                samples.append(sample)
                print(f"[soak] {json.dumps(sample)}", flush=True)
                due += self.args.sample
            time.sleep(max(0.0, min(1.0, end - time.monotonic(), due - time.monotonic())))

    def sample(self, stack: Stack, gen_pids: list[int], db_name: str, at: float) -> dict[str, Any]:
        from django.db import connection

        rss: dict[str, float] = {}
        for i, proc in enumerate(stack.server):
            for pid in _descendants(proc.pid):
                rss[f"web{i}:{pid}"] = _rss_mb(pid)
        for proc in stack.others:
            kind = "worker" if "worker" in " ".join(proc.args) else "beat"
            for pid in _descendants(proc.pid):
                rss[f"{kind}:{pid}"] = _rss_mb(pid)
        for pid in gen_pids:
            rss[f"loadgen:{pid}"] = _rss_mb(pid)
        backends = _db_backends(db_name)
        # A backend's VmRSS counts the shared buffers it has touched (shared by all of
        # them): its own memory is RssAnon.
        rss["postgres backends, private (sum)"] = round(
            sum(_rss_mb(pid, "RssAnon:") for pid in backends), 1
        )
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT (SELECT count(*) FROM games_tableaction), pg_total_relation_size('games_tableaction'),"
                " (SELECT count(*) FROM games_dealing), (SELECT count(*) FROM games_matchresult),"
                " (SELECT count(*) FROM games_table WHERE log_archived_at IS NOT NULL)"
            )
            log_rows, log_bytes, dealings, results, archived = cursor.fetchone()
            cursor.execute("SHOW autovacuum")
            autovacuum = cursor.fetchone()[0] == "on"
            if not autovacuum:
                # A server with autovacuum off (a development set-up) would let the
                # deleted rows' space pile up: stand in for it, once a sample.
                for name in ("games_tableaction", "games_dealing", "games_table"):
                    cursor.execute(f"VACUUM (ANALYZE) {name}")
        import redis

        info = redis.Redis.from_url(self.args.redis_url).info("memory")
        return {
            "minute": round(at / 60, 1),
            "rss_mb": rss,
            "log_rows": log_rows,
            "log_mb": round(log_bytes / 1e6, 2),
            "dealings": dealings,
            "backends": len(backends),
            "vacuumed": not autovacuum,
            "results": results,
            "archived": archived,
            "redis_used_mb": round(info["used_memory"] / 1e6, 2),
            "load": os.getloadavg()[0],
        }

    def profile(self, pids: list[int], label: str) -> None:
        """py-spy on each server worker for the window (not a project dependency: pass its
        path with --py-spy). ``--gil``: only the thread holding the GIL is sampled, so the
        samples show where the process spends CPU in Python (waits on PostgreSQL, Redis or
        the sockets are not counted). Raw collapsed stacks land in the temp folder;
        ``bench/pyspy_summary.py`` sums them up."""
        for pid in pids:
            if not Path(f"/proc/{pid}/cmdline").read_bytes().count(b"uvicorn") and not _is_worker(
                pid
            ):
                continue
            out = self.tmp / f"py-spy-{label}-{pid}.txt"
            self.children.start(
                "py-spy",
                [
                    self.args.py_spy,
                    "record",
                    "--pid",
                    str(pid),
                    "--duration",
                    str(int(self.args.window)),
                    "--rate",
                    "200",
                    "--gil",
                    "--format",
                    "raw",
                    "--output",
                    str(out),
                    "--nonblocking",
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            print(f"  py-spy on {pid} -> {out}", flush=True)

    # -- everything -------------------------------------------------------------------------------

    def run(self) -> list[dict[str, Any]]:
        args = self.args
        print(
            f"[bench] database {args.database_url}, redis {args.redis_url}; logs in {self.tmp}",
            flush=True,
        )
        self.database()
        self.django()
        plans: list[tuple[int, int, float]] = []  # (workers, tables, think)
        for think in args.think:
            for n in args.tables:
                plans.append((args.workers, n, think))
        for n in args.one_worker:
            plans.append((1, n, 0.0))
        rows = []
        current: tuple[int, Stack] | None = None
        for workers, n, think in plans:
            if current is None or current[0] != workers:
                if current is not None:
                    self.stop_stack(current[1])
                current = (workers, self.stack(workers))
            label = f"{n}t-{'closed' if think == 0 else f'think{think:g}'}-{workers}w"
            print(f"[bench] {label}: setting up {n} tables ...", flush=True)
            row = self.measure(current[1], n, think, workers, label)
            print(
                f"[bench] {label}: {row['actions_per_s']:.0f} actions/s, p50 {row['p50_ms']:.1f} ms, "
                f"p99 {row['p99_ms']:.1f} ms, stalled {row['stalled']}, errors {row['errors']}, "
                f"connections per server process {row['spread']}",
                flush=True,
            )
            rows.append(row)
        if current is not None:
            self.stop_stack(current[1])
        return rows


def _is_worker(pid: int) -> bool:
    try:
        return b"multiprocessing" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def _readline(proc: subprocess.Popen[str], timeout: float) -> str:
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


def _quantile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    return values[min(len(values) - 1, int(q * len(values)))]


def machine(load_before: tuple[float, float, float]) -> str:
    import channels
    import channels_redis
    import django
    import psycopg
    import redis
    import uvicorn
    import websockets

    def server_version(cmd: list[str]) -> str:
        try:
            return subprocess.run(cmd, capture_output=True, text=True, timeout=5).stdout.strip()
        except Exception:
            return "?"

    pg = "?"
    with contextlib.suppress(Exception):
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute("SHOW server_version")
            pg = cursor.fetchone()[0]
    rv = "?"
    with contextlib.suppress(Exception):
        import redis as r

        rv = r.Redis.from_url(os.environ["REDIS_URL"]).info("server")["redis_version"]
    load = os.getloadavg()
    cpu = "?"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    del server_version
    return (
        f"machine: {os.cpu_count()} CPUs ({cpu}); load average (1, 5, 15 min) at the start "
        f"{load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}, at the end "
        f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}\n"
        f"Python {platform.python_version()}, Django {django.__version__}, channels {channels.__version__}, "
        f"channels-redis {channels_redis.__version__}, uvicorn {uvicorn.__version__}, "
        f"redis-py {redis.__version__}, websockets {websockets.__version__}, psycopg {psycopg.__version__}, "
        f"PostgreSQL {pg}, Redis {rv}"
    )


def report(rows: list[dict[str, Any]], args: argparse.Namespace, header: str) -> str:
    lines = [
        header,
        f"server: uvicorn, {'--workers N (one port, the kernel spreads connections)' if args.server == 'workers' else ('N processes on N ports (clients spread round-robin)' if args.spread == 'seats' else 'N processes on N ports (each table on one process)')}; "
        f"Celery worker (concurrency 1) + beat; load generator: {args.loadgens} process(es), uvloop; "
        f"permessage-deflate {'on' if args.deflate else 'off'}",
        f"windows: {args.warmup:g} s warm-up, {args.window:g} s measured; "
        f"stalled = no progress for {args.stall:g} s in the window (never moved: none at all)",
        "",
        "| tables | think | ASGI procs | actions/s | p50 ms | p99 ms | max ms "
        "| stalled (never moved) | longest pause s | matches won | errors "
        "| CPU ms/action: server (sys) / PostgreSQL | CPU/s: server / PostgreSQL / loadgen / machine "
        "| conns per proc |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---|---|",
    ]
    for r in rows:
        errors = ", ".join(f"{k} {v}" for k, v in sorted(r["errors"].items())) or "0"
        lines.append(
            f"| {r['tables']} | {r['think']:g} s | {r['workers']} | {r['actions_per_s']:.0f} | {r['p50_ms']:.1f} | "
            f"{r['p99_ms']:.1f} | {r['max_ms']:.0f} | {r['stalled']} ({r['never_moved']}) | "
            f"{r['max_gap']:.1f} | {r['finished']} | {errors} | "
            f"{r['cpu_ms_per_action']:.2f} ({r['sys_ms_per_action']:.2f}) / {r['db_ms_per_action']:.2f} | "
            f"{r['cpu_server']:.2f} / {r['cpu_db']:.2f} / {r['cpu_loadgen']:.2f} / {r['cpu_machine']:.2f} | "
            f"{'/'.join(str(x) for x in r['spread'])} |"
        )
    lines.append("")
    for r in rows:
        extra = []
        if r["states_in_window"]:
            extra.append(f"{r['states_in_window']} state frames in the window")
        if r["gaps"]:
            extra.append(f"{r['gaps']} version gaps")
        if r["replace_failures"]:
            extra.append(f"replacement failures: {r['replace_failures']}")
        if r["connect_retries"]:
            extra.append(f"{r['connect_retries']} connect retries")
        lines.append(
            f"{r['label']}: {r['samples']} latency samples, set-up {r['setup_s']:.1f} s, connect {r['connect_s']:.1f} s, "
            f"{r['replaced']} new tables for winners' players, Celery CPU/s {r['cpu_celery']:.2f}, "
            f"update frames {r['update_bytes_per_action']:.0f} bytes per action (three seats), "
            f"Redis server CPU {r['redis_ms_per_action']:.2f} ms per action (the whole server: an upper bound), "
            "per action in PostgreSQL: "
            + ", ".join(f"{k} {v:.2f}" for k, v in r["db_rows_per_action"].items())
            + "; per action in the servers: system calls "
            + ", ".join(f"{k} {r['kernel_per_action'][k]:.1f}" for k in ("read", "write"))
            + ", context switches "
            + ", ".join(f"{k} {r['kernel_per_action'][k]:.1f}" for k in ("voluntary", "preempted"))
            + (f"; {'; '.join(extra)}" if extra else "")
        )
    for r in rows:
        lines += _soak_report(r)
    bar = [
        r for r in rows if r["tables"] == 300 and r["think"] == 0 and r["workers"] == args.workers
    ]
    if bar:
        r = bar[0]
        ok = r["actions_per_s"] >= 600 and r["stalled"] == 0
        lines.append(
            f"bar, 300 tables closed loop: >= 600 actions/s and none stalled: {'met' if ok else 'NOT met'}"
        )
    think = [r for r in rows if r["think"] > 0 and r["workers"] == args.workers]
    if think:
        worst = max(r["p99_ms"] for r in think)
        lines.append(
            f"bar, think time p99 <= 100 ms: {'met' if worst <= 100 else 'NOT met'} (worst {worst:.1f} ms)"
        )
    return "\n".join(lines)


def _soak_report(r: dict[str, Any]) -> list[str]:
    """The soak's figures: latency per period, resident memory per process per sample,
    the log's size; flat memory = within 10% of its first sample after the warm-up."""
    samples = r["samples_taken"]
    if not samples:
        return []
    lines = ["", f"soak {r['label']}: latency per period, every sample in the window", ""]
    lines += ["| from minute | samples | p50 ms | p99 ms | max ms |", "|---:|---:|---:|---:|---:|"]
    for p in r["p99_per_period"]:
        lines.append(
            f"| {p['from_min']:.0f} | {p['samples']} | {p['p50_ms']:.1f} | {p['p99_ms']:.1f} | {p['max_ms']:.0f} |"
        )
    names = list(samples[0]["rss_mb"])
    lines += ["", "resident memory, MB (first sample, last, largest; change last/first):", ""]
    lines += ["| process | first | last | largest | change |", "|---|---:|---:|---:|---:|"]
    for name in names:
        series = [s["rss_mb"].get(name, 0.0) for s in samples]
        first, last = series[0], series[-1]
        change = (last / first - 1) * 100 if first else float("nan")
        lines.append(f"| {name} | {first:.1f} | {last:.1f} | {max(series):.1f} | {change:+.1f}% |")
    lines += [
        "",
        "| minute | log rows | log MB | dealings | results | archived tables | Redis MB | load |",
    ]
    lines += ["|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for s in samples:
        lines.append(
            f"| {s['minute']:g} | {s['log_rows']} | {s['log_mb']} | {s['dealings']} | {s['results']} "
            f"| {s['archived']} | {s['redis_used_mb']} | {s['load']:.2f} |"
        )
    return lines


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--tables", default="10,100,300", help="table counts (comma-separated)")
    p.add_argument("--think", default="0,1", help="think times in seconds (0 = closed loop)")
    p.add_argument(
        "--one-worker",
        default="300",
        help="table counts to run again, closed loop, with one ASGI process ('' for none)",
    )
    p.add_argument("--workers", type=int, default=2, help="ASGI worker processes")
    p.add_argument(
        "--server",
        choices=("workers", "ports"),
        default="ports",
        help="'ports' (default): N uvicorn processes on N ports, each table's three clients "
        "spread over them round-robin (as a load balancer would); 'workers': uvicorn --workers N "
        "on one port, the kernel spreads the connections (unevenly: see docs/benchmarks.md)",
    )
    p.add_argument("--loadgens", type=int, default=1, help="load-generator processes")
    p.add_argument(
        "--spread",
        choices=["seats", "tables"],
        default="seats",
        help="with --server ports: 'seats' (default) puts each table's three clients on the "
        "processes round-robin (as a balancer that knows nothing of tables does, so most "
        "actions cross processes); 'tables' puts all three on one process, as the "
        "deployment's balancer does (deploy/haproxy.cfg hashes a table's socket path; "
        "nothing crosses processes)",
    )
    p.add_argument("--warmup", type=float, default=3.0)
    p.add_argument("--window", type=float, default=15.0)
    p.add_argument("--stall", type=float, default=STALL_SECONDS)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--deflate",
        action=argparse.BooleanOptionalAction,
        default=False,
        help="permessage-deflate on the websockets (off by default, as the production commands "
        "run uvicorn: scripts/stack, Dockerfile, docker-compose.yml)",
    )
    p.add_argument(
        "--ws",
        default="",
        help="uvicorn's websocket implementation (--ws: websockets, websockets-sansio, wsproto; "
        "default: uvicorn's own choice)",
    )
    p.add_argument(
        "--target",
        type=int,
        default=0,
        help="short matches: to this many points, without the barrel (random players never reach 1000)",
    )
    p.add_argument("--no-celery", action="store_true", help="without the Celery worker and beat")
    p.add_argument(
        "--sample",
        type=float,
        default=0.0,
        help="the soak: every this many seconds of the window, print the resident memory of "
        "every process and the log table's size (e.g. --window 1800 --sample 60)",
    )
    p.add_argument(
        "--period",
        type=float,
        default=300.0,
        help="the soak: latency reported per this many seconds",
    )
    p.add_argument(
        "--retention",
        type=int,
        default=None,
        help="GAMES_LOG_RETENTION_SECONDS for the stack (the archive task runs every minute)",
    )
    p.add_argument(
        "--database-url",
        default=os.environ.get(
            "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/thousand_bench"
        ),
    )
    p.add_argument(
        "--redis-url", default=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/6")
    )
    p.add_argument(
        "--py-spy", default="", help="path of a py-spy binary: profile the server during --profile"
    )
    p.add_argument(
        "--profile", default="300t-closed-2w", help="the configuration to profile (its label)"
    )
    args = p.parse_args(argv)
    args.tables = [int(x) for x in args.tables.split(",") if x.strip()]
    args.think = [float(x) for x in args.think.split(",") if x.strip()]
    args.one_worker = [int(x) for x in args.one_worker.split(",") if x.strip()]
    return args


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--loadgen":
        loadgen_main(sys.argv[2])
        return
    args = parse()
    load_before = os.getloadavg()
    _raise_fd_limit()
    bench = Bench(args)

    def on_signal(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_signal)
    try:
        rows = bench.run()
        print()
        print(report(rows, args, machine(load_before)))
    finally:
        bench.children.stop_all()


if __name__ == "__main__":
    main()
