"""The ratings REST API and its place in the OpenAPI schema."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from ratings.services import rating_apply_result
from tests.factories import UserFactory
from tests.ratings.helpers import finished_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def three() -> list:  # type: ignore[type-arg]
    users = [UserFactory(username=f"u{i}") for i in range(3)]
    now = timezone.now()
    for i in range(2):
        rating_apply_result(
            result_id=finished_match(users, at=now - timedelta(minutes=5 - i), seed=i + 1).pk
        )
    return users


def test_leaderboard_api_lists_the_board(client: Client, three: list) -> None:  # type: ignore[type-arg]
    data = client.get("/api/v1/leaderboard/?players=3&provisional=true").json()
    assert (data["total"], [r["rank"] for r in data["results"]]) == (3, [1, 2, 3])


def test_leaderboard_api_gives_my_row(client: Client, three: list) -> None:  # type: ignore[type-arg]
    client.force_login(three[0])
    assert client.get("/api/v1/leaderboard/?provisional=1").json()["me"]["username"] == "u0"


def test_leaderboard_api_refuses_bad_input(client: Client) -> None:
    response = client.get("/api/v1/leaderboard/?players=7")
    assert (response.status_code, list(response.json()["error"]["fields"])) == (400, ["players"])


def test_history_api_gives_every_change(client: Client, three: list) -> None:  # type: ignore[type-arg]
    assert len(client.get("/api/v1/players/u0/ratings/").json()) == 2


def test_stats_api_gives_totals(client: Client, three: list) -> None:  # type: ignore[type-arg]
    data = client.get("/api/v1/players/u1/stats/").json()
    assert data["stats"]["matches"] == 2 and data["ratings"][0]["players"] == 3


def test_unknown_player_api_is_not_found(client: Client) -> None:
    assert client.get("/api/v1/players/ghost/stats/").status_code == 404


def test_the_schema_lists_the_ratings_endpoints(client: Client) -> None:
    schema = client.get("/api/schema/?format=json").json()
    assert {
        "/api/v1/leaderboard/",
        "/api/v1/players/{username}/ratings/",
        "/api/v1/players/{username}/stats/",
    } <= set(schema["paths"])
