"""What a duplicate evening's players read while a round is played and after it: the
tables closed until the round is over say when they open, the placement points nobody
earns are given nowhere, the tie-break is stated (docs/duplicate.md)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Table
from tests.games.helpers import play_to_end
from tests.tournaments.helpers import entered, play_round, settle
from tests.tournaments.test_duplicate_dealing import duplicate_cup
from tests.tournaments.test_pages import signed_in
from tournaments.models import Assignment

pytestmark = pytest.mark.django_db


def round_in_play():
    """Round 1 of a duplicate cup playing at two tables; the tables by number."""
    t = duplicate_cup()
    entered(t, 6)
    settle(t, 0)
    first, second = Assignment.objects.filter(round__tournament=t).order_by("number")
    return t, first, second


def player_at(a: Assignment):
    return a.seats.exclude(user=None).first().user


def test_during_a_round_the_event_page_offers_no_watch_link_to_another_table() -> None:
    t, first, second = round_in_play()
    page = signed_in(player_at(first)).get(reverse("tournaments:detail", args=[t.pk]))
    assert reverse("games:table", args=[second.table_id]) not in page.content.decode()


def test_during_a_round_the_event_page_says_when_another_table_opens() -> None:
    t, first, _second = round_in_play()
    page = signed_in(player_at(first)).get(reverse("tournaments:detail", args=[t.pk]))
    assert "opens when the round is over" in page.content.decode()


def test_a_table_closed_until_the_round_is_over_says_when_it_opens() -> None:
    _t, first, second = round_in_play()
    page = signed_in(player_at(first)).get(reverse("games:table", args=[second.table_id]))
    assert (page.status_code, "This table opens when its round is over") == (
        403,
        page.content.decode().split("<h1>")[1].split("</h1>")[0],
    )


def test_a_replay_closed_until_the_round_is_over_says_when_it_opens() -> None:
    _t, first, _second = round_in_play()
    play_to_end(Table.objects.get(pk=first.table_id))
    page = signed_in(player_at(first)).get(reverse("games:replay", args=[first.table_id]))
    assert page.status_code == 403 and "opens when its round is over" in page.content.decode()


def test_the_rounds_api_gives_a_duplicate_event_no_placement_points(client) -> None:
    t, _first, _second = round_in_play()
    play_round(t)
    settle(t, 1)
    rounds = client.get(f"/api/v1/tournaments/{t.pk}/rounds/").json()
    played = next(r for r in rounds if r["number"] == 1)
    assert {s["points"] for table in played["tables"] for s in table["seats"]} == {None}
