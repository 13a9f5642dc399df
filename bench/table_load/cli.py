"""The command line: ``python -m bench.table_load [options]``; ``--loadgen SPEC`` runs a load
generator (the bench starts those itself)."""

from __future__ import annotations

import argparse
import os
import signal
import sys
from typing import Any

from bench.table_load.client import STALL_SECONDS, loadgen_main, raise_fd_limit
from bench.table_load.report import machine, report
from bench.table_load.run import Bench


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
        default=None,
        help="with --server ports: 'seats' (default) puts each table's three clients on the "
        "processes round-robin (as a balancer that knows nothing of tables does, so most "
        "actions cross processes); 'tables' puts all three on one process, as the "
        "deployment's balancer does (deploy/haproxy.cfg hashes a table's socket path; "
        "nothing crosses processes). Meaningless with --balancer haproxy (HAProxy places "
        "every connection): refused there",
    )
    p.add_argument(
        "--balancer",
        choices=("none", "haproxy"),
        default="none",
        help="'none' (default): the clients connect straight to the server processes (as "
        "--spread says); 'haproxy': HAProxy runs the deployment's deploy/haproxy.cfg (its "
        "servers the N processes' ports, bound to a free local port) and every client, "
        "websocket and REST, connects to it; its CPU is reported beside the servers'",
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
    if args.balancer != "none" and args.spread is not None:
        p.error(
            f"--spread has no meaning with --balancer {args.balancer}: the balancer places "
            "every connection (a table's sockets by the hash of their path)"
        )
    if args.spread is None:
        args.spread = "seats"
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
    raise_fd_limit()
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
