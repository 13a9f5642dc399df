"""The balancer of the deployment (deploy/haproxy.cfg) run for real by HAProxy, in front
of three stand-in web replicas: a table's websockets go to one replica, by the hash of
their path, and everything else to the least busy one.

The replicas are tiny HTTP servers that answer the health check and every other request
with their own port, so a test sees which one a request reached; the configuration is the
deployment's own, with its Docker DNS lookup of the replicas replaced by their three local
addresses (``bench/haproxy.py``, which ``python -m bench.table_load --balancer haproxy``
runs too).
"""

from __future__ import annotations

import http.client
import json
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from bench.haproxy import local_config
from tests.integration.processes import haproxy_binary


class Replica(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)

    @property
    def port(self) -> int:
        return int(self.server_address[1])


class _Handler(BaseHTTPRequestHandler):
    server: Replica

    def do_GET(self) -> None:
        if self.path == "/healthz":
            body = json.dumps({"status": "ok"}).encode()
        else:
            body = str(self.server.port).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def balancer(tmp_path: Path) -> Iterator[tuple[int, list[Replica]]]:
    haproxy = haproxy_binary()
    replicas = [Replica() for _ in range(3)]
    for r in replicas:
        threading.Thread(target=r.serve_forever, daemon=True).start()
    port = _free_port()
    config = tmp_path / "haproxy.cfg"
    config.write_text(local_config([r.port for r in replicas], port, maxconn=200))
    process = subprocess.Popen(
        [haproxy, "-db", "-f", str(config)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + 20
        while True:  # until every replica passed its first health check
            answered = {_get(port, f"/ready/{i}/") for i in range(12)}
            if answered == {str(r.port) for r in replicas}:
                break
            assert process.poll() is None, process.stderr.read().decode() if process.stderr else ""
            assert time.monotonic() < deadline, f"replicas not all up behind HAProxy: {answered}"
            time.sleep(0.2)
        yield port, replicas
    finally:
        process.terminate()
        process.wait(timeout=10)
        for r in replicas:
            r.shutdown()
            r.server_close()


def _get(port: int, path: str) -> str:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.read().decode() if response.status == 200 else f"HTTP {response.status}"
    except OSError as exc:
        return f"error {exc}"
    finally:
        connection.close()


def test_a_table_s_sockets_all_reach_the_same_replica(balancer):
    port, _ = balancer
    paths = [f"/ws/tables/42/?client={n}" for n in range(6)] + ["/ws/tables/42/"] * 3

    reached = {_get(port, path) for path in paths}

    assert len(reached) == 1


def test_the_tables_spread_over_every_replica(balancer):
    port, replicas = balancer

    reached = {_get(port, f"/ws/tables/{table}/") for table in range(1, 61)}

    assert reached == {str(r.port) for r in replicas}


def test_pages_are_not_tied_to_one_replica(balancer):
    port, replicas = balancer

    reached = {_get(port, "/lobby/") for _ in range(12)}

    assert reached == {str(r.port) for r in replicas}
