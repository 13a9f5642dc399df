"""Django settings for the test suite: the project's own, on the services found running.

``tests.services`` runs first: it finds PostgreSQL and Redis (at the addresses the
environment names, else at the default ones) and puts what answers into the environment
that ``config.settings`` reads. Servers and workers that tests start get that
environment and the project's own settings module.
"""

import os

from tests import services  # noqa: F401  (finds the services; must run before the settings)

os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"  # for the processes tests start
# The admin's tests sign staff in with force_login; the second factor the admin asks for
# is tested on its own (tests/accounts/test_two_factor.py turns it on).
os.environ.setdefault("ACCOUNTS_ADMIN_OTP", "false")

from config.settings import *  # noqa: F403
