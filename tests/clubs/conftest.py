"""Club tests run tournaments' live tables as the tournaments tests do: bot turns wait in
the manual scheduler. The real services (PostgreSQL, Redis) come from the integration
fixtures: a failure, not a skip, with CI set."""

from tests.games.conftest import _manual_scheduler  # noqa: F401  (autouse)
from tests.integration.conftest import postgres_url, redis_url  # noqa: F401
