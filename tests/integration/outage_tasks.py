"""A task only the broker-outage tests' workers load (``celery worker --include``)."""

import time

from celery import shared_task


@shared_task(name="outage.nap", acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def nap(seconds: float) -> float:
    """Sleep ``seconds``: a task in flight, acknowledged late as a bot turn is."""
    time.sleep(seconds)
    return seconds
