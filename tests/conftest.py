"""Suite-wide test set-up.

* Hypothesis: the "ci" profile (bounded examples, no deadline, derandomized so that a run
  is repeatable) is loaded unless HYPOTHESIS_PROFILE names another ("dev", "thorough").
* Celery runs tasks eagerly in every test, whatever the environment says, so that tests
  are deterministic; tests that prove the real worker build their own client.
* The suite runs with DEBUG off, as production does, so it brings a secret key of its own
  (settings are loaded before this file; processes the tests start inherit it).
"""

import os
from collections.abc import Iterator

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
    """Browser tests run last: Playwright's synchronous API keeps an event loop in the
    main thread until the session ends, and every asyncio test after it would fail."""
    items.sort(key=lambda item: "/tests/e2e/" in str(item.path))


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
