"""A rated match played to the end at a live table (the games services, bots and the
signal) moves the ratings through the receiver and the task."""

from collections.abc import Iterator

import pytest
from django.test import Client

from games import scheduler
from games import state as table_state
from ratings.models import Rating, RatingChange
from tests.games.helpers import play_to_end, started_table

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _manual_scheduler(settings: pytest.FixtureRequest) -> Iterator[None]:
    settings.GAMES_SCHEDULER = "manual"  # type: ignore[attr-defined]
    settings.GAMES_BOT_DELAY = 0  # type: ignore[attr-defined]
    scheduler.discard_pending()
    table_state.clear()
    yield
    scheduler.discard_pending()
    table_state.clear()


def test_a_finished_rated_table_updates_the_leaderboard_and_the_chart(client: Client) -> None:
    table, (ann,) = started_table(humans=1, bots=2, players=3, rated=True)
    play_to_end(table)
    page = client.get(f"/players/{ann.username}/").content.decode()
    assert (
        RatingChange.objects.filter(result__table=table).count(),
        Rating.objects.filter(competitor__user=ann, players=3, games=1).exists(),
        'class="rating-line" data-players="3"' in page,
    ) == (2, True, True)  # ann and the basic level (its two seats are one competitor)
