"""Settings of the servers that tests/integration/test_client_address.py starts: the
project's own, with three sign-ups an hour per address, counted under a key prefix of
the test's own (so runs and other tests never share counts)."""

import os

from config.settings import *  # noqa: F403

ACCOUNTS_SIGNUP_RATE = "3/hour"
CACHES["default"]["KEY_PREFIX"] = os.environ["ADDRESS_TEST_CACHE_PREFIX"]  # noqa: F405
