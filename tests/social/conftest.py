"""The social app's tests: each starts with nobody present (no presence keys in Redis, none in
this process)."""

from collections.abc import Iterator

import pytest

from social import presence


def _forget_presence() -> None:
    presence._local.clear()
    presence._memory.clear()
    client = presence._client()
    if client is not None:
        keys = list(client.scan_iter(f"{presence.PREFIX}*"))
        if keys:
            client.delete(*keys)


@pytest.fixture(autouse=True)
def _nobody_present() -> Iterator[None]:
    _forget_presence()
    yield
    _forget_presence()


# The real services, as the integration tests use them (a failure, not a skip, with CI set).
from tests.integration.conftest import postgres_url, redis_url  # noqa: E402, F401
