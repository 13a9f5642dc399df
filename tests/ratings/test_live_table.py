"""A rated match played to the end at a live table (the games services, bots and the
signal) moves the ratings through the receiver and the task."""

import pytest
from django.test import Client

from ratings.models import Rating, RatingChange
from tests.games.conftest import _manual_scheduler  # noqa: F401  (autouse: bots wait for the test)
from tests.games.helpers import play_to_end, started_table

pytestmark = pytest.mark.django_db


def test_a_finished_rated_table_updates_the_leaderboard_and_the_chart(client: Client) -> None:
    table, (ann,) = started_table(humans=1, bots=2, players=3, rated=True)
    play_to_end(table)
    page = client.get(f"/players/{ann.username}/").content.decode()
    assert (
        RatingChange.objects.filter(result__table=table).count(),
        Rating.objects.filter(competitor__user=ann, players=3, games=1).exists(),
        # One match: the chart draws its points (a line only from three matches on).
        'class="rating-point" data-players="3"' in page,
    ) == (2, True, True)  # ann and the basic level (its two seats are one competitor)
