"""Celery tasks of the clubs app: load, call one service, nothing else."""

from celery import shared_task

from clubs import series


@shared_task(name="clubs.series_materialize", ignore_result=True)
def series_materialize() -> int:
    """Create the coming occurrences of the clubs' recurring evenings."""
    return series.series_materialize_all()
