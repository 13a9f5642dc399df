"""Suite-wide test set-up.

* Hypothesis: the "ci" profile (bounded examples, no deadline, derandomized so that a run
  is repeatable) is loaded unless HYPOTHESIS_PROFILE names another ("dev", "thorough").
* Celery runs tasks eagerly in every test, whatever the environment says, so that tests
  are deterministic; tests that prove the real worker build their own client.
* The suite runs with DEBUG off, as production does, so it brings a secret key of its own
  (settings are loaded before this file; processes the tests start inherit it).
"""

import os
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings as django_settings
from hypothesis import HealthCheck, settings

TEST_SECRET_KEY = "tests-only-not-secret-" + "k" * 40
os.environ["DJANGO_SECRET_KEY"] = os.environ.get("DJANGO_SECRET_KEY") or TEST_SECRET_KEY
django_settings.SECRET_KEY = os.environ["DJANGO_SECRET_KEY"]

settings.register_profile(
    "ci",
    max_examples=100,
    deadline=None,
    derandomize=True,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", max_examples=50, deadline=None)
settings.register_profile("thorough", max_examples=2000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(autouse=True)
def _celery_eager() -> Iterator[None]:
    from config.celery import app

    saved = (app.conf.task_always_eager, app.conf.task_eager_propagates)
    app.conf.task_always_eager = True
    app.conf.task_eager_propagates = True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = saved


@pytest.fixture(autouse=True)
def _forget_async_threads_connections() -> Iterator[None]:
    """An async test's database calls run on asgiref's one thread for thread-sensitive
    work (and a consumer's on the loop's pool); the connection a test opened there would
    outlive the test, and Channels' clean-up of the next async test touches it, which
    pytest-django forbids outside a database test (and an in-memory SQLite connection
    cannot even be closed). Drop those threads' connections after every test."""
    yield
    from asgiref.sync import SyncToAsync
    from django.db import connections

    def forget() -> None:
        for connection in connections.all(initialized_only=True):
            connection.close()
            del connections[connection.alias]

    SyncToAsync.single_thread_executor.submit(forget).result()


@pytest.fixture(autouse=True)
def _default_language() -> Iterator[None]:
    """A request leaves its language active in the thread; start each test in English."""
    yield
    from django.utils import translation

    translation.deactivate()


@pytest.fixture(autouse=True)
def _fast_password_hashing(request: pytest.FixtureRequest) -> None:
    """Real hashers cost ~0.3 s a password on purpose; tests only need correct ones."""
    if "django_db_setup" in request.fixturenames or "db" in request.fixturenames:
        request.getfixturevalue("settings").PASSWORD_HASHERS = [
            "django.contrib.auth.hashers.MD5PasswordHasher"
        ]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The slow tests (``@pytest.mark.slow(seconds=…)``: a minute or more of servers,
    workers and clocks) run first, longest first, each followed by one quick test: the
    parallel run (``make test``, xdist handing out one test at a time) then gives each
    worker one of them at the start and fills the gaps with the rest, instead of leaving
    a two-minute test for the end. The order within the rest is the collection's."""
    slow = sorted(
        (item for item in items if item.get_closest_marker("slow")),
        key=lambda item: -_expected_seconds(item),
    )
    rest = [item for item in items if not item.get_closest_marker("slow")]
    ordered: list[pytest.Item] = []
    for item in slow:
        ordered.append(item)
        if rest:
            ordered.append(rest.pop(0))
    items[:] = ordered + rest


def _expected_seconds(item: pytest.Item) -> float:
    marker = item.get_closest_marker("slow")
    return float(marker.kwargs.get("seconds", 60)) if marker else 0.0


def pytest_report_header(config: pytest.Config) -> list[str]:
    from tests import services

    lines = [services.summary()]
    workers = getattr(config.option, "numprocesses", None)
    if workers:
        lines.append(
            f"workers: {workers} (pytest-xdist), each on databases of its own made from these "
            "(thousand_gw1, Redis db + 1…)"
        )
    return lines


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Skips, grouped by reason: the tests a missing service skipped are named in one line
    a service (pytest's own -r lists skips one location a line; pyproject asks it not to)."""
    from collections import defaultdict

    from tests import services

    by_reason: dict[str, list[str]] = defaultdict(list)
    for report in terminalreporter.stats.get("skipped", []):
        reason = (
            str(report.longrepr[2]) if isinstance(report.longrepr, tuple) else str(report.longrepr)
        )
        by_reason[reason.removeprefix("Skipped: ")].append(report.nodeid.rsplit("::", 1)[-1])
    missing = [service for service in (services.POSTGRES, services.REDIS) if not service.up]
    for service in missing:
        names = [
            name
            for reason, tests in by_reason.items()
            if service.skip_reason in reason
            for name in tests
        ]
        if names:
            terminalreporter.write_line(
                f"{len(names)} skipped without {service.name} ({service.problem}): {', '.join(names)}"
            )
    for reason, names in by_reason.items():
        if not any(service.skip_reason in reason for service in missing):
            terminalreporter.write_line(f"{len(names)} skipped: {reason}")


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    """Throttles and sign-in limits count in the cache (Redis when REDIS_URL is set): each
    test starts with none of this project's keys (other users of the Redis keep theirs)."""
    from django.core.cache import caches
    from django.core.cache.backends.redis import RedisCache

    default = caches["default"]
    if isinstance(default, RedisCache):
        client = default._cache.get_client(None, write=True)
        keys = list(client.scan_iter(f"{default.key_prefix}:*"))
        if keys:
            client.delete(*keys)
    else:
        default.clear()


@pytest.fixture(autouse=True)
def _bots_queue_of_this_test(
    monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> Iterator[None]:
    """The bots' fair queue (games.bot_queue) under keys of this test alone. The suite's
    Redis db is shared by every test of a worker process and by the servers and workers
    the tests start (which use the real keys): a bot turn a test left filed there would
    read as a queue delay on such a stack's /healthz, and be played by its workers."""
    from games import bot_queue

    if "e2e" not in request.node.path.parts:  # a browser module's server lives on
        _forget_real_bot_turns(bot_queue.PREFIX)
    prefix = f"test:{uuid.uuid4().hex[:8]}:bots:"
    monkeypatch.setattr(bot_queue, "OWNERS_KEY", prefix + "owners")
    monkeypatch.setattr(bot_queue, "DUE_KEY", prefix + "due")
    monkeypatch.setattr(bot_queue, "JOBS_KEY", prefix + "jobs:{owner}")
    monkeypatch.setattr(bot_queue, "RESCUED_KEY", prefix + "rescued:{job}")
    yield
    if bot_queue._client.cache_info().currsize:  # the test reached Redis's queue
        try:
            client = bot_queue.client()
            keys = list(client.scan_iter(prefix + "*"))
            if keys:
                client.delete(*keys)
        except Exception:  # the test's Redis is gone (a fault test): nothing to tidy
            pass


_real_queue_client: list[Any] = []


def _forget_real_bot_turns(prefix: str) -> None:
    """Bot turns that servers or workers an earlier test started (under the real keys,
    in this worker's Redis db) filed and nobody played: gone before the next test, whose
    stack would otherwise read them as its bots' queue delay."""
    url = os.environ.get("REDIS_URL")
    if not url:
        return
    try:
        if not _real_queue_client:
            import redis

            _real_queue_client.append(redis.Redis.from_url(url, socket_timeout=2))
        client = _real_queue_client[0]
        keys = list(client.scan_iter(prefix + "*", count=1000))
        if keys:
            client.delete(*keys)
    except Exception:  # Redis away (a fault test stopped it): nothing to tidy
        pass
