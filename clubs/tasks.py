"""Celery tasks of the clubs app: load, call one service, nothing else."""

from celery import shared_task

from clubs import series
from clubs.models import Season


@shared_task(name="clubs.series_materialize", ignore_result=True)
def series_materialize() -> int:
    """Create the coming occurrences of the clubs' recurring evenings."""
    return series.series_materialize_all()


@shared_task(name="clubs.event_seasons_refresh", ignore_result=True)
def event_seasons_refresh(tournament_id: int) -> int:
    """A club event's standings were written: store its results and its seasons' tables."""
    return series.event_seasons_refresh(tournament_id=tournament_id)


@shared_task(name="clubs.season_table_store", ignore_result=True)
def season_table_store(season_id: int) -> bool:
    """A season was started or changed: store its table."""
    season = Season.objects.filter(pk=season_id).first()
    return season is not None and series.season_table_store(season=season)
