"""What a run measures besides the load generator's figures: CPU of processes, PostgreSQL
backends and Redis, kernel counters, rows, memory, and the spread of connections."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def descendants(pid: int) -> list[int]:
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


def cpu_seconds(pids: list[int]) -> float:
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / tick


def sys_seconds(pids: list[int]) -> float:
    """The kernel's share of :func:`cpu_seconds` (system calls: sockets, epoll)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            total += int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[12])
        except OSError:
            continue
    return total / tick


def kernel_counts(pids: list[int]) -> dict[str, int]:
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


def db_backends(name: str) -> dict[int, float]:
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
            out[int(entry)] = cpu_seconds([int(entry)])
    return out


def db_cpu(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU used between two :func:`db_backends` readings (a backend that appeared in
    between counts from zero; one that ended in between is lost: the pool keeps them)."""
    return sum(cpu - before.get(pid, 0.0) for pid, cpu in after.items())


def redis_pids() -> list[int]:
    """The redis-server processes of this machine (their CPU includes every other user
    of the same server: an upper bound for this run's share)."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError):
                if Path(f"/proc/{entry}/cmdline").read_bytes().startswith(b"redis-server"):
                    out.append(int(entry))
    return out


def db_rows(name: str) -> dict[str, int]:
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


def rss_mb(pid: int, field: str = "VmRSS:") -> float:
    """Resident memory of a process in MB (0 when it has gone)."""
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field):
                return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def p99_per_period(
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
                    "p50_ms": 1000 * quantile(part, 0.5),
                    "p99_ms": 1000 * quantile(part, 0.99),
                    "max_ms": 1000 * part[-1],
                }
            )
        start += period
    return out


def machine_busy() -> tuple[float, float]:
    """(busy, total) jiffies of the whole machine."""
    parts = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = parts[3] + parts[4]
    return sum(parts) - idle, sum(parts)


def connections_per_process(port_pids: dict[int, list[int]]) -> dict[int, int]:
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


def is_worker(pid: int) -> bool:
    try:
        return b"multiprocessing" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def quantile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    return values[min(len(values) - 1, int(q * len(values)))]
