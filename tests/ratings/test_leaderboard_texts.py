"""The rating pages: what a newcomer reads on the leaderboards."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from ratings.services import rating_apply_result
from tests.factories import UserFactory
from tests.ratings.helpers import finished_match

pytestmark = pytest.mark.django_db


def one_rated_match() -> list:  # type: ignore[type-arg]
    users = [UserFactory(display_name=f"Newcomer {i}") for i in range(3)]
    rating_apply_result(
        result_id=finished_match(users, at=timezone.now() - timedelta(minutes=1), seed=1).pk
    )
    return users


def test_after_one_rated_match_the_default_board_says_who_is_hidden_and_offers_the_switch(
    client: Client,
) -> None:
    one_rated_match()

    page = client.get("/leaderboards/?bots=0").content.decode()

    assert "No rated games have been played yet." not in page
    assert "3 provisional players (fewer than 10 rated matches) are hidden" in page
    assert "provisional=1" in page.split('class="hidden-note"', 1)[1].split("</p>", 1)[0]


def test_the_empty_board_text_only_when_nothing_is_hidden(client: Client) -> None:
    page = client.get("/leaderboards/").content.decode()

    assert "No rated games have been played yet." in page
    assert 'class="hidden-note"' not in page


def test_a_bot_row_has_one_label(client: Client) -> None:
    users = [UserFactory(), UserFactory()]
    rating_apply_result(result_id=finished_match([*users, "strong"], seed=2).pk)

    page = client.get("/leaderboards/?provisional=1").content.decode()

    row = next(r for r in page.split("<tr") if "bot" in r.lower() and "<td" in r)
    assert row.count('class="badge"') == 0
    assert "bot bot" not in row and "provisional" not in row


def test_the_russian_leaderboard_search_is_labelled_name_of_a_person(client: Client) -> None:
    page = client.get("/leaderboards/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()

    assert "Имя <input" in page and "Название" not in page
