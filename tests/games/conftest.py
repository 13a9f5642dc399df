"""Live-table tests: bot turns and clocks wait in the manual scheduler until the test
runs them (games/scheduler.py), with no pause; every test starts with an empty
per-process state cache."""

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import redis

from games import bot_queue, scheduler
from games import state as table_state


@pytest.fixture(autouse=True)
def _manual_scheduler(settings: pytest.FixtureRequest) -> Iterator[None]:
    settings.GAMES_SCHEDULER = "manual"  # type: ignore[attr-defined]
    settings.GAMES_BOT_DELAY = 0  # type: ignore[attr-defined]
    scheduler.discard_pending()
    table_state.clear()
    yield
    scheduler.discard_pending()
    table_state.clear()


# The real services, as the integration tests use them (a failure, not a skip, with CI set).
from tests.integration.conftest import postgres_url, redis_url  # noqa: E402, F401


@pytest.fixture
def fair_queue(
    redis_url: str,  # noqa: F811  (the fixture imported above)
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[redis.Redis]:
    """The queue's keys, of this test alone, on the suite's Redis."""
    settings.CELERY_BROKER_URL = redis_url
    prefix = f"test:{uuid.uuid4().hex[:8]}:"
    monkeypatch.setattr(bot_queue, "OWNERS_KEY", prefix + "owners")
    monkeypatch.setattr(bot_queue, "DUE_KEY", prefix + "due")
    monkeypatch.setattr(bot_queue, "JOBS_KEY", prefix + "jobs:{owner}")
    client = redis.Redis.from_url(redis_url)
    yield client
    keys = list(client.scan_iter(prefix + "*"))
    if keys:
        client.delete(*keys)
