from collections.abc import Iterator

import pytest

from games.bots.strong import StrongBot


@pytest.fixture(autouse=True)
def _strict_strong_bot() -> Iterator[None]:
    """Search failures raise in tests instead of falling back to the basic bot."""
    StrongBot.strict = True
    yield
    StrongBot.strict = False
