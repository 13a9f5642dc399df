from collections.abc import Iterator

import pytest

from games.bots.strong import StrongBot


@pytest.fixture(autouse=True)
def _strict_strong_bot() -> Iterator[None]:
    """Search failures raise in tests instead of falling back to the basic bot."""
    StrongBot.strict = True
    yield
    StrongBot.strict = False


# Bot turns and clocks wait in the manual scheduler until a test runs them, as at the
# live-table tests (an autouse fixture of tests/games/conftest.py).
from tests.games.conftest import _manual_scheduler  # noqa: E402, F401
