"""Celery results do not pile up: no task stores its return value except the one that is
waited for (config.ping, the tests' probe of a real worker)."""

from config.celery import app


def test_no_task_but_the_ping_stores_its_result() -> None:
    app.loader.import_default_modules()
    app.autodiscover_tasks(force=True)
    ours = {name: task for name, task in app.tasks.items() if not name.startswith("celery.")}

    storing = sorted(name for name, task in ours.items() if not task.ignore_result)

    assert {"games.logs_archive", "ratings.apply_result", "tournaments.record_result"} <= set(ours)
    assert storing == ["config.ping"]
