"""The deployment's balancer (``deploy/haproxy.cfg``) run by HAProxy on this machine, in
front of local servers: its configuration rewritten to local addresses, and the state of
its servers read from its stats socket.

Shared by ``bench/table_load`` (``--balancer haproxy``) and
``tests/integration/test_balancer.py``; it imports nothing of the tests.
"""

from __future__ import annotations

import csv
import io
import re
import shutil
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

from bench.stack import ROOT

DEPLOY_CONFIG = ROOT / "deploy" / "haproxy.cfg"


def binary() -> str | None:
    """HAProxy's path (Debian installs it in /usr/sbin, often not on a user's PATH)."""
    return shutil.which("haproxy") or shutil.which("haproxy", path="/usr/sbin")


def _sub(pattern: str, replacement: str, text: str, what: str, count: int = 1) -> str:
    text, found = re.subn(pattern, replacement, text)
    if found != count:
        raise ValueError(f"{DEPLOY_CONFIG}: {what} found {found} time(s), expected {count}")
    return text


def local_config(
    server_ports: list[int],
    port: int,
    *,
    maxconn: int,
    host: str = "127.0.0.1",
    stats_socket: Path | None = None,
) -> str:
    """``deploy/haproxy.cfg`` with its Docker parts made local: the servers of both
    backends (``web`` and ``tables``) at ``host`` on ``server_ports`` instead of Docker's
    DNS (no ``resolvers``), the frontend bound to ``host:port``, ``maxconn`` instead of
    the deployment's 20000 (two descriptors a connection: 40000 is over many a machine's
    limit), and optionally a stats socket (:func:`server_states`). Everything else is the
    deployment's own: the balancing, the timeouts, the health check (its Host header is
    still ``web``: the servers must allow that host, as docker-compose.yml's
    DJANGO_ALLOWED_HOSTS does). A part not found as expected raises ``ValueError`` (the
    file changed: change this too)."""
    text = DEPLOY_CONFIG.read_text()
    servers = "\n".join(f"    server web{i} {host}:{p}" for i, p in enumerate(server_ports))
    text = _sub(
        r"(?m)^\s*server-template web \d+ web:8000$",
        servers,
        text,
        "the servers' template",
        count=2,
    )
    text = _sub(r"(?ms)^resolvers docker\n.*?\n\n", "", text, "the resolvers section")
    text = _sub(r" resolvers docker init-addr none", "", text, "the resolvers", count=2)
    text = _sub(r"(?m)^(\s*)bind :8000$", rf"\g<1>bind {host}:{port}", text, "the bind")
    stats = f"\n    stats socket {stats_socket} mode 600 level user" if stats_socket else ""
    text = _sub(
        r"(?m)^(global\n\s*)maxconn \d+$", rf"\g<1>maxconn {maxconn}{stats}", text, "maxconn"
    )
    return text


def server_states(stats_socket: Path) -> list[dict[str, str]]:
    """One row of ``show stat`` a server of a backend (``pxname``, ``svname``,
    ``status``: UP/DOWN/…, ``check_status``: L7OK once a check passed, ``scur``…)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(5)
        s.connect(str(stats_socket))
        s.sendall(b"show stat\n")
        chunks = []
        while chunk := s.recv(65536):
            chunks.append(chunk)
    text = b"".join(chunks).decode().lstrip("# ")
    return [
        row
        for row in csv.DictReader(io.StringIO(text))
        if row.get("svname") not in (None, "", "FRONTEND", "BACKEND")
    ]


def wait_servers_up(
    proc: subprocess.Popen[Any], stats_socket: Path, servers: int, timeout: float = 30.0
) -> list[dict[str, str]]:
    """Until ``servers`` servers of every backend are UP after a passed health check
    (``L7OK``); raises ``RuntimeError`` when HAProxy exits or ``timeout`` runs out."""
    deadline = time.monotonic() + timeout
    rows: list[dict[str, str]] = []
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"HAProxy exited (code {proc.returncode})")
        try:
            rows = server_states(stats_socket)
        except OSError:
            rows = []  # not listening yet
        backends: dict[str, int] = {}
        for row in rows:
            up = row["status"] == "UP" and row["check_status"].startswith("L7OK")
            backends[row["pxname"]] = backends.get(row["pxname"], 0) + up
        if backends and all(n == servers for n in backends.values()):
            return rows
        if time.monotonic() > deadline:
            states = [
                f"{r['pxname']}/{r['svname']} {r['status']} {r['check_status']}" for r in rows
            ]
            raise RuntimeError(f"HAProxy's servers not all up in {timeout:.0f} s: {states}")
        time.sleep(0.2)
