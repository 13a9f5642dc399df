"""The analysis's Celery task, on the ``analysis`` queue (config/settings.py's routes):
load by id, call the service. A failure is retried (``ANALYSIS_RETRIES`` times, a minute
apart); after the last the analysis is marked failed, with no result. ``acks_late``: an
analysis whose worker dies is run again by another (the service starts it over)."""

from typing import Any

from celery import shared_task
from django.conf import settings

from analysis import services


@shared_task(
    bind=True,
    name=services.RUN_TASK,
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
)
def analysis_run(self: Any, analysis_id: int) -> bool:
    try:
        return services.analysis_run(analysis_id=analysis_id)
    except Exception as exc:
        if self.request.retries >= settings.ANALYSIS_RETRIES:
            services.analysis_fail(analysis_id=analysis_id, error=repr(exc))
            raise
        raise self.retry(exc=exc, countdown=60) from exc
