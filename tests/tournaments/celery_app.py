"""The project's Celery app as the end-to-end test runs it: its own queue, the tournaments
tick in the beat schedule (beside the clock sweep), bots without their human-like pause.

``celery -A tests.tournaments.celery_app worker|beat`` with ``E2E_QUEUE`` set.
"""

import os

os.environ.setdefault("GAMES_BOT_DELAY", "0")

from config.celery import app

queue = os.environ["E2E_QUEUE"]
app.conf.task_default_queue = queue
app.conf.task_routes = {
    "*": {"queue": queue}
}  # not config.celery's pools: all on this test's queue
app.conf.beat_schedule = {
    "games-clocks-sweep": {"task": "games.clocks_sweep", "schedule": 1.0},
    "tournaments-tick": {"task": "tournaments.tick", "schedule": 1.0},
}
app.conf.beat_scheduler = "celery.beat:PersistentScheduler"

__all__ = ["app"]
