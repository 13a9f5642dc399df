"""Settings of the full-stack browser tests' servers (tests/e2e/stack.py): the project's
own, with the Celery queue of this run (web, worker and beat share it and nobody else),
the analysis on a queue of its own when E2E_ANALYSIS_QUEUE names one, and the tick and
the clock sweep every second (Celery's own beat scheduler, no database table)."""

import os

from config.settings import *  # noqa: F403

CELERY_TASK_DEFAULT_QUEUE = os.environ["E2E_QUEUE"]
CELERY_TASK_ROUTES = {"*": {"queue": CELERY_TASK_DEFAULT_QUEUE}}  # not config.celery's pools
if os.environ.get("E2E_ANALYSIS_QUEUE"):
    CELERY_TASK_ROUTES = {
        "analysis.*": {"queue": os.environ["E2E_ANALYSIS_QUEUE"]},
        **CELERY_TASK_ROUTES,
    }
CELERY_BEAT_SCHEDULER = "celery.beat:PersistentScheduler"
CELERY_BEAT_SCHEDULE = {
    "games-clocks-sweep": {"task": "games.clocks_sweep", "schedule": 1.0},
    "tournaments-tick": {"task": "tournaments.tick", "schedule": 1.0},
}
