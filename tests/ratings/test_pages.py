"""The leaderboards page, the player page and the profile include."""

from datetime import timedelta

import pytest
from django.template import Context, Template
from django.test import Client
from django.utils import timezone

from ratings.services import rating_apply_result
from tests.factories import UserFactory
from tests.ratings.helpers import finished_match

pytestmark = pytest.mark.django_db


def play(users, n: int = 1) -> None:  # type: ignore[no-untyped-def]
    now = timezone.now()
    for i in range(n):
        rating_apply_result(
            result_id=finished_match(users, at=now - timedelta(minutes=n - i), seed=i + 1).pk
        )


def test_empty_leaderboard_says_no_games_yet(client: Client) -> None:
    assert "No rated games have been played yet." in client.get("/leaderboards/").content.decode()


def test_leaderboard_lists_players_with_their_rating(client: Client) -> None:
    a, b, c = UserFactory(display_name="Ann"), UserFactory(), UserFactory()
    play([a, b, c])
    page = client.get("/leaderboards/?provisional=1").content.decode()
    assert "Ann" in page and "provisional" in page


def test_leaderboard_shows_my_rank(client: Client) -> None:
    a, b, c = UserFactory(), UserFactory(), UserFactory()
    play([a, b, c])
    client.force_login(a)
    assert "Your rank:" in client.get("/leaderboards/?provisional=1").content.decode()


def test_leaderboard_ignores_bad_switches(client: Client) -> None:
    assert client.get("/leaderboards/?players=9&period=x&page=zz").status_code == 200


def test_player_page_draws_the_rating_chart(client: Client) -> None:
    a, b, c = UserFactory(username="ann"), UserFactory(), UserFactory()
    play([a, b, c], 3)  # from three matches on a line (one or two are drawn as points)
    page = client.get("/players/ann/").content.decode()
    assert 'class="rating-line" data-players="3"' in page


def test_player_page_links_recent_matches_to_their_replays(client: Client) -> None:
    a, b, c = UserFactory(username="ann"), UserFactory(), UserFactory()
    play([a, b, c])
    table_id = a.competitor.changes.get().result.table_id
    assert f"/tables/{table_id}/replay/" in client.get("/players/ann/").content.decode()


def test_unknown_player_is_not_found(client: Client) -> None:
    assert client.get("/players/nobody/").status_code == 404


def test_profile_include_renders_for_a_user_without_matches() -> None:
    html = Template("{% load ratings_tags %}{% profile_ratings user %}").render(
        Context({"user": UserFactory()})
    )
    assert "No rated matches yet." in html


def test_leaderboard_is_translated(client: Client) -> None:
    client.cookies["django_language"] = "ru"
    assert (
        "Показать игроков с предварительным рейтингом"
        in client.get("/leaderboards/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    )
