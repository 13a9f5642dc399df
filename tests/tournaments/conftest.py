"""Tournament tests run the live tables as the games tests do: bot turns wait in the
manual scheduler until a helper runs them. The real services (PostgreSQL, Redis) come
from the integration fixtures: a failure, not a skip, with CI set."""

import pytest
from django.test import Client

from tests.factories import UserFactory
from tests.games.conftest import _manual_scheduler  # noqa: F401  (autouse)
from tests.integration.conftest import postgres_url, redis_url  # noqa: F401


@pytest.fixture
def organiser() -> Client:
    """A superuser signed in: the organiser in the admin site."""
    client = Client()
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client
