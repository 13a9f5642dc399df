"""An amended result is carried everywhere: after the organiser
amends a table cut by the clock, "My matches", the table page, the tournament page, the
player page, the CSV and the APIs give the amended places, say they were amended and why,
and nothing says "ranked by scores" beside places that contradict the scores."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import MatchResult, Table
from tests.games.helpers import play_to_end
from tests.tournaments.helpers import step
from tests.tournaments.test_time_limit import long_round
from tournaments import services
from tournaments.models import Assignment

pytestmark = pytest.mark.django_db

REASON = "Scores misread from the sheet"


@pytest.fixture
def amended(django_db_setup: Any) -> tuple[Any, Assignment, Any, int]:
    """A rated Swiss table ended by the clock, its places turned round by the organiser;
    returns the tournament, the table, the player whose place changed, his new place."""
    t, a, limit = long_round(rated=True)
    step(t, limit)
    play_to_end(Table.objects.get(pk=a.table_id))
    step(t, limit + 1)
    a.refresh_from_db()
    assert a.status == Assignment.Status.FINISHED and a.stopped_early
    played = MatchResult.objects.get(table_id=a.table_id).placements
    places = list(range(len(played), 0, -1))  # seat 0 last, …, the last seat first
    if places == played:
        places.reverse()
    services.assignment_amend(assignment=a, places=places, reason=REASON)
    seat = next(
        s for s in a.seats.order_by("number") if s.user_id and places[s.number] != played[s.number]
    )
    return t, a, seat.user, places[seat.number]


def as_player(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_my_matches_shows_the_amended_place_and_why(amended: Any) -> None:
    _t, _a, player, place = amended

    page = as_player(player).get(reverse("games:matches")).content.decode()

    assert f"place {place}," in page
    assert f"The organiser amended the places: {REASON}" in page
    assert "the places go by the scores" not in page


def test_the_table_page_says_the_places_were_amended_not_ranked_by_scores(amended: Any) -> None:
    _t, a, player, place = amended

    page = as_player(player).get(reverse("games:table", args=[a.table_id])).content.decode()

    assert f"The organiser amended the places: {REASON}" in page
    assert "the places go by the scores" not in page
    assert f"You placed {place} at this table" in page


def test_the_tournament_page_marks_the_table_amended_instead_of_ranked_by_scores(
    amended: Any,
) -> None:
    t, _a, _player, _place = amended

    page = Client().get(reverse("tournaments:detail", args=[t.pk])).content.decode()

    assert f"places amended by the organiser: {REASON}" in page
    assert "ranked by scores" not in page


def test_the_player_page_marks_the_amended_place(amended: Any) -> None:
    _t, _a, player, _place = amended

    page = Client().get(f"/players/{player.username}/").content.decode()

    assert f"amended by the organiser: {REASON}" in page


def test_the_results_csv_and_api_give_the_amended_places_and_the_reason(amended: Any) -> None:
    t, a, player, place = amended
    client = as_player(player)

    text = client.get(reverse("tournaments:results_csv", args=[t.pk])).content.decode()
    rows = [r for r in csv.DictReader(io.StringIO(text)) if r["table_id"] == str(a.table_id)]
    api = client.get(f"/api/v1/tournaments/{t.pk}/rounds/").json()
    table = client.get(f"/api/v1/tables/{a.table_id}/").json()

    mine = next(r for r in rows if r["player"] == player.get_display_name())
    assert mine["place"] == str(place) and {r["amended"] for r in rows} == {REASON}
    api_table = next(t for r in api for t in r["tables"] if t["table_id"] == a.table_id)
    assert api_table["amended"] == REASON
    seat = next(s for s in a.seats.all() if s.user_id == player.pk).number
    assert table["result"]["placements"][seat] == place
    assert table["result"]["amended"]["reason"] == REASON
