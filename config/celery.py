"""The Celery app: `celery -A config worker` and `celery -A config beat`."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("thousand")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.task(name="config.ping", ignore_result=False)
def ping(payload: str) -> dict[str, object]:
    """Echo ``payload`` with the worker's pid: used by tests and to probe a worker."""
    return {"pong": payload, "pid": os.getpid()}
