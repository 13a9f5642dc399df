"""The periodic tasks (CELERY_BEAT_SCHEDULE) are each either one that play depends on
(config.celery.PLAY_TASKS: /healthz waits for their heartbeats) or housekeeping: a new
periodic task cannot be left out of the health check by forgetting the hand-kept list."""

from __future__ import annotations

from django.conf import settings

from config.celery import HOUSEKEEPING_TASKS, PLAY_TASKS, app, heartbeat_names


def scheduled() -> set[str]:
    return {str(entry["task"]) for entry in settings.CELERY_BEAT_SCHEDULE.values()}


def test_every_periodic_task_is_either_one_play_depends_on_or_housekeeping() -> None:
    assert scheduled() == set(PLAY_TASKS) | set(HOUSEKEEPING_TASKS)


def test_no_periodic_task_is_both_play_and_housekeeping() -> None:
    assert not set(PLAY_TASKS) & set(HOUSEKEEPING_TASKS)


def test_the_health_check_watches_every_periodic_task_play_depends_on() -> None:
    assert heartbeat_names() == sorted(PLAY_TASKS)


def test_every_periodic_task_play_depends_on_is_a_registered_task() -> None:
    app.loader.import_default_modules()
    app.autodiscover_tasks(force=True)
    assert set(PLAY_TASKS) <= set(app.tasks)
