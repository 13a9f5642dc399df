"""Live-table tests: bot turns and clocks wait in the manual scheduler until the test
runs them (games/scheduler.py), with no pause; every test starts with an empty
per-process state cache."""

from collections.abc import Iterator

import pytest

from games import scheduler
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
