"""The PostgreSQL and Redis the test suite runs on, found once before Django's settings load.

``make test`` needs no variables. ``tests/settings.py`` imports this module first; it
looks for each service at the address the environment names (``DATABASE_URL``,
``REDIS_URL``) or, when nothing is set, at the README's default addresses, and then:

* a service that answers is used: its URL is put into the environment, so the suite, and
  every server or worker a test starts, runs on it (as CI and production do);
* a service that does not answer is left out: the suite runs on SQLite and the in-memory
  channel layer, and the tests that need the missing service skip, named in one line at
  the end of the run, unless ``CI`` is set: then they fail, because CI must test the
  real parts.

The report header says in one line which services the run used.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from urllib.parse import urlsplit

import pytest

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/thousand"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
POSTGRES_SCHEMES = ("postgres://", "postgresql://", "pgsql://")
PROBE_TIMEOUT = 2  # seconds; a closed port answers at once, a dead host waits this long


def ci() -> bool:
    """Whether missing services fail the run instead of skipping its tests."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


@dataclass(frozen=True)
class Service:
    name: str  # "PostgreSQL" or "Redis"
    variable: str  # the environment variable that names it
    url: str
    problem: str | None  # why the suite cannot use it; None when it answers

    @property
    def up(self) -> bool:
        return self.problem is None

    @property
    def skip_reason(self) -> str:
        return f"needs {self.name}: {self.problem}"

    def require(self) -> str:
        """The service's URL; a test that calls this skips without it (fails under CI)."""
        if self.problem is not None:
            hint = f"start {self.name} there or set {self.variable} to one that runs"
            if ci():
                pytest.fail(
                    f"CI is set, so this is a failure: {self.skip_reason} ({hint})", pytrace=False
                )
            pytest.skip(f"{self.skip_reason} ({hint}; with CI set this fails)")
        return self.url


def _probe_postgres(url: str) -> str | None:
    import psycopg

    parts = urlsplit(url)
    server = parts._replace(scheme="postgresql", path="/postgres").geturl()
    try:
        with psycopg.connect(server, connect_timeout=PROBE_TIMEOUT):
            return None
    except psycopg.Error as error:
        # "connection failed: connection to server at …, port 5999 failed: Connection refused"
        reason = (
            str(error).strip().splitlines()[0].rsplit(": ", 1)[-1] if str(error).strip() else ""
        )
        return f"not reachable at {url} ({reason or type(error).__name__})"


def _probe_redis(url: str) -> str | None:
    import redis

    try:
        redis.Redis.from_url(
            url, socket_connect_timeout=PROBE_TIMEOUT, socket_timeout=PROBE_TIMEOUT
        ).ping()
    except redis.RedisError as error:
        return f"not reachable at {url} ({type(error).__name__}: {error})"
    return None


WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
"""``gw0``, ``gw1``… in a worker of ``pytest -n N`` (pytest-xdist); empty in a plain run."""


def for_this_worker_database(url: str) -> str:
    """Each xdist worker works in databases of its own: ``thousand`` becomes
    ``thousand_gw1`` (pytest-django makes its test database from that, and the servers
    tests start make theirs from it too: ``thousand_gw1_e2e``…)."""
    if not WORKER:
        return url
    parts = urlsplit(url)
    name = parts.path.lstrip("/") or "thousand"
    return parts._replace(path=f"/{name}_{WORKER}").geturl()


def for_this_worker_redis(url: str) -> str:
    """Each xdist worker uses a Redis database of its own (the URL's number + the
    worker's): channel groups, heartbeats, queues and throttles never cross."""
    if not WORKER:
        return url
    parts = urlsplit(url)
    base = int(parts.path.lstrip("/") or 0)
    number = (base + int(WORKER.removeprefix("gw"))) % 16
    return parts._replace(path=f"/{number}").geturl()


def _find_postgres() -> Service:
    named = os.environ.get("DATABASE_URL", "")
    if named and not named.startswith(POSTGRES_SCHEMES):
        # The person asked for another database (SQLite): the suite runs on it as told.
        problem = f"DATABASE_URL names another database ({named})"
        return Service("PostgreSQL", "DATABASE_URL", DEFAULT_DATABASE_URL, problem)
    url = for_this_worker_database(named or DEFAULT_DATABASE_URL)
    service = Service("PostgreSQL", "DATABASE_URL", url, _probe_postgres(url))
    if service.up or ci():
        os.environ["DATABASE_URL"] = url  # under CI a dead one then fails the run, loudly
    else:
        os.environ.pop("DATABASE_URL", None)  # SQLite
    return service


def _find_redis() -> Service:
    url = for_this_worker_redis(os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL)
    service = Service("Redis", "REDIS_URL", url, _probe_redis(url))
    if service.up or ci():
        os.environ["REDIS_URL"] = url
    else:
        os.environ.pop("REDIS_URL", None)  # the in-memory channel layer, eager Celery
    return service


POSTGRES = _find_postgres()
REDIS = _find_redis()


def summary() -> str:
    """One line for the report header: what this run talks to."""
    database = (
        f"PostgreSQL at {POSTGRES.url}"
        if POSTGRES.up
        else f"SQLite (PostgreSQL {POSTGRES.problem})"
    )
    layer = (
        f"Redis at {REDIS.url}" if REDIS.up else f"in-memory channel layer (Redis {REDIS.problem})"
    )
    return f"services: {database}; {layer}"


def require_tool(name: str) -> str:
    """The path of a program a test runs (``redis-server``, ``initdb``…); without it the
    test skips, or fails when ``CI`` is set (.ci/run's machine has them all)."""
    import shutil

    path = shutil.which(name)
    if path is None:
        message = f"needs the program {name!r} on PATH (apt-get install redis-server postgresql)"
        if ci():
            pytest.fail(f"CI is set, so this is a failure: {message}", pytrace=False)
        pytest.skip(message)
    return path
