"""Tournament tests run the live tables as the games tests do: bot turns wait in the
manual scheduler until a helper runs them."""

from tests.games.conftest import _manual_scheduler  # noqa: F401  (autouse)
