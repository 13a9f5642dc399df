"""Processes the fault tests start and stop: a Redis of their own, Celery workers, the
stack (the runner is ``bench/stack.py``, shared with the benches).

A Redis server of a test's own (on a free port, in a temporary directory, without
persistence) can be stopped and started again without touching the shared one.
"""

from __future__ import annotations

from pathlib import Path

import redis

from bench import stack
from bench.stack import ROOT, Stack, alive, free_port, listening, start_worker, stop, wait_until
from tests.services import require_tool

__all__ = [
    "ROOT",
    "RedisServer",
    "Stack",
    "alive",
    "free_port",
    "haproxy_binary",
    "listening",
    "start_worker",
    "stop",
    "wait_until",
]


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


class RedisServer(stack.RedisServer):
    """``redis-server`` on a free port (skipped without it, a failure under ``CI``)."""

    def __init__(self, directory: Path) -> None:
        super().__init__(directory, require_tool("redis-server"))

    def client(self) -> redis.Redis:
        return redis.Redis.from_url(self.url, socket_timeout=2, socket_connect_timeout=2)
