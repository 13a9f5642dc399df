"""Celery tasks of the live tables: load by id, call one service, nothing else.

``acks_late`` with ``reject_on_worker_lost``: a worker killed in the middle of a bot's
turn leaves the task to another worker, and the services make a second run harmless
(the version it carries is then stale). The clock sweep is the last safety net: every
deadline lives in the database.
"""

from celery import shared_task
from django.conf import settings

from games import retention, services


@shared_task(
    name="games.bot_turn_next", acks_late=True, reject_on_worker_lost=True, ignore_result=True
)
def bot_turn_next() -> bool:
    """A token of the bots' fair queue: play the fairest bot turn due (games.bot_queue)."""
    return services.bot_turn_next()


@shared_task(
    name="games.bot_play_turn", acks_late=True, reject_on_worker_lost=True, ignore_result=True
)
def bot_play_turn(table_id: int, version: int) -> bool:
    """One table's bot turn, as it was sent before the fair queue (messages of that time)."""
    return services.bot_play(table_id=table_id, version=version)


@shared_task(
    name="games.clocks_sweep", acks_late=True, reject_on_worker_lost=True, ignore_result=True
)
def clocks_sweep() -> int:
    return services.clocks_sweep()


@shared_task(name="games.logs_archive", ignore_result=True)
def logs_archive() -> int:
    """Delete the log rows and dealings of finished matches past the retention time."""
    # Most of the interval between two runs, so that the archive keeps up with the
    # matches that end (docs/capacity.md), and never two runs at once.
    return retention.logs_archive(budget=0.75 * settings.GAMES_ARCHIVE_SWEEP_SECONDS).tables
