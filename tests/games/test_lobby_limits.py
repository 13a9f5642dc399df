"""Unlimited tables: one person holds only a few open tables, and the
lobby shows a page of them at a cost that does not grow with their number."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from games import errors, services
from games.models import Table
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def open_tables(count: int) -> None:
    """``count`` open public tables, three to a person (the cap)."""
    for n in range(count):
        if n % 3 == 0:
            user = UserFactory()
        services.table_open(user=user, players=3)


def test_a_person_may_hold_only_a_few_open_tables(settings):
    user = UserFactory()
    for _ in range(settings.GAMES_OPEN_TABLES_PER_USER):
        services.table_open(user=user, players=3)

    with pytest.raises(errors.TooManyTables):
        services.table_open(user=user, players=3)
    assert Table.objects.filter(created_by=user).count() == settings.GAMES_OPEN_TABLES_PER_USER


def test_the_api_answers_too_many_tables_in_the_error_shape(settings):
    api = APIClient()
    api.force_authenticate(UserFactory())
    for _ in range(settings.GAMES_OPEN_TABLES_PER_USER):
        assert api.post("/api/v1/tables/", {}, format="json").status_code == 201

    response = api.post("/api/v1/tables/", {}, format="json")

    assert response.status_code == 409
    assert response.json()["error"]["code"] == "too_many_tables"


def test_leaving_an_open_table_frees_a_place(settings):
    user = UserFactory()
    tables = [
        services.table_open(user=user, players=3)
        for _ in range(settings.GAMES_OPEN_TABLES_PER_USER)
    ]
    services.table_leave(table=tables[0], user=user)

    assert services.table_open(user=user, players=3).status == Table.Status.OPEN


def test_a_table_that_starts_at_once_is_not_held_back_by_the_cap(settings):
    """A tournament's round or "play against bots" must seat a person who has his open
    tables in the lobby."""
    user = UserFactory()
    for _ in range(settings.GAMES_OPEN_TABLES_PER_USER):
        services.table_open(user=user, players=3)

    assert services.table_play_bots(user=user, level="basic").status == Table.Status.PLAYING


def test_the_lobby_shows_one_page_and_links_to_the_next(client):
    open_tables(35)

    first = client.get("/play/").content.decode()
    second = client.get("/play/?page=2").content.decode()

    assert first.count('class="table-item"') == 30
    assert 'href="/play/?page=2"' in first
    assert second.count('class="table-item"') == 5
    assert 'href="/play/?page=1"' in second


def test_a_bad_page_number_shows_the_first_page(client):
    open_tables(2)

    assert client.get("/play/tables/?page=x").content.decode().count('class="table-item"') == 2


def lobby_queries(client) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/play/tables/").status_code == 200
    return len(queries)


def test_the_lobbys_queries_do_not_grow_with_the_number_of_tables(client):
    client.force_login(UserFactory())
    open_tables(3)
    few = lobby_queries(client)
    open_tables(60)

    assert lobby_queries(client) == few


@pytest.mark.parametrize("query", ["limit=0", "limit=1000", "offset=-1", "limit=x"])
def test_the_api_list_refuses_a_page_out_of_bounds(query):
    response = APIClient().get(f"/api/v1/tables/?{query}")

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "malformed"


def test_the_api_list_pages_with_limit_and_offset():
    open_tables(5)

    ids = [t["id"] for t in APIClient().get("/api/v1/tables/?limit=2&offset=1").json()]

    assert ids == list(Table.objects.order_by("-created_at").values_list("pk", flat=True)[1:3])
