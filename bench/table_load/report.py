"""The report: one table of every configuration, with the machine it ran on."""

from __future__ import annotations

import argparse
import contextlib
import os
import platform
import subprocess
from pathlib import Path
from typing import Any


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


def _server(args: argparse.Namespace) -> str:
    if args.server == "workers":
        server = "--workers N (one port, the kernel spreads connections)"
    else:
        server = "N processes on N ports"
    if args.balancer == "haproxy":
        return (
            f"{server}, behind HAProxy running deploy/haproxy.cfg (a table's sockets by the "
            "hash of their path, pages to the least busy process)"
        )
    if args.server == "workers":
        return server
    if args.spread == "seats":
        return f"{server} (clients spread round-robin)"
    return f"{server} (each table on one process)"


def report(rows: list[dict[str, Any]], args: argparse.Namespace, header: str) -> str:
    # With a balancer its CPU comes after PostgreSQL's in both CPU columns.
    haproxy = args.balancer == "haproxy"
    lines = [
        header,
        f"server: uvicorn, {_server(args)}; "
        f"Celery worker (concurrency 1) + beat; load generator: {args.loadgens} process(es), uvloop; "
        f"permessage-deflate {'on' if args.deflate else 'off'}",
        f"windows: {args.warmup:g} s warm-up, {args.window:g} s measured; "
        f"stalled = no progress for {args.stall:g} s in the window (never moved: none at all)",
        "",
        "| tables | think | ASGI procs | actions/s | p50 ms | p99 ms | max ms "
        "| stalled (never moved) | longest pause s | matches won | errors "
        f"| CPU ms/action: server (sys) / PostgreSQL{' / HAProxy' if haproxy else ''} "
        f"| CPU/s: server / PostgreSQL{' / HAProxy' if haproxy else ''} / loadgen / machine "
        "| conns per proc |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---|---|",
    ]
    for r in rows:
        errors = ", ".join(f"{k} {v}" for k, v in sorted(r["errors"].items())) or "0"
        ms_balancer = f" / {r['balancer_ms_per_action']:.2f}" if haproxy else ""
        cpu_balancer = f" / {r['cpu_balancer']:.2f}" if haproxy else ""
        lines.append(
            f"| {r['tables']} | {r['think']:g} s | {r['workers']} | {r['actions_per_s']:.0f} | {r['p50_ms']:.1f} | "
            f"{r['p99_ms']:.1f} | {r['max_ms']:.0f} | {r['stalled']} ({r['never_moved']}) | "
            f"{r['max_gap']:.1f} | {r['finished']} | {errors} | "
            f"{r['cpu_ms_per_action']:.2f} ({r['sys_ms_per_action']:.2f}) / {r['db_ms_per_action']:.2f}{ms_balancer} | "
            f"{r['cpu_server']:.2f} / {r['cpu_db']:.2f}{cpu_balancer} / {r['cpu_loadgen']:.2f} / {r['cpu_machine']:.2f} | "
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
