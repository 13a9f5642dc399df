"""How long ``GET /healthz`` takes on a running server (the aim: under 10 ms when healthy).

Start the server first (``make stack``, or ``uvicorn config.asgi:application`` with
``DATABASE_URL`` and ``REDIS_URL`` set), then run::

    python -m bench.healthz [URL] [--requests N]

URL defaults to http://127.0.0.1:8000/healthz. Prints the first call on a fresh
connection and then N calls over one kept-alive connection, as a load balancer makes
them: the wall time the client saw and the ``took_ms`` the server measured for its
checks (min, median, 95th percentile, max), with the machine it ran on. Figures taken
while other work runs on the machine are noisy.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import statistics
import time
from urllib.parse import urlsplit


def fetch(conn: http.client.HTTPConnection, path: str) -> tuple[float, int, float]:
    """One request: (wall ms, status, server took_ms)."""
    started = time.perf_counter()
    conn.request("GET", path)
    response = conn.getresponse()
    body = response.read()
    wall = (time.perf_counter() - started) * 1000
    return wall, response.status, float(json.loads(body).get("took_ms", "nan"))


def summary(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return (
        f"min {ordered[0]:6.2f}  median {statistics.median(ordered):6.2f}  "
        f"p95 {p95:6.2f}  max {ordered[-1]:6.2f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("url", nargs="?", default="http://127.0.0.1:8000/healthz")
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()
    parts = urlsplit(args.url)
    host, port, path = parts.hostname or "127.0.0.1", parts.port or 80, parts.path or "/"

    print(
        f"{platform.node()}: {platform.processor() or platform.machine()}, "
        f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}; {args.url}"
    )
    first = fetch(http.client.HTTPConnection(host, port, timeout=10), path)
    print(
        f"first call on a new connection: {first[0]:.2f} ms wall, status {first[1]}, "
        f"took_ms {first[2]}"
    )

    conn = http.client.HTTPConnection(host, port, timeout=10)
    walls, tooks, statuses = [], [], set()
    for _ in range(args.requests):
        wall, status, took = fetch(conn, path)
        walls.append(wall)
        tooks.append(took)
        statuses.add(status)
    conn.close()
    print(f"{args.requests} calls, statuses {sorted(statuses)}")
    print(f"  wall (client):    {summary(walls)}")
    print(f"  took_ms (checks): {summary(tooks)}")


if __name__ == "__main__":
    main()
