"""The pages of a tournament's table once the clock cut it: the table page says which
tournament and round it belongs to, why it ended, where the player placed and where he
goes next; its replay opens; "My matches" says how it ended."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Table
from tests.games.helpers import play_to_end
from tests.tournaments.helpers import START, running, settle, step
from tournaments.models import Assignment

pytestmark = pytest.mark.django_db


def cut_table(rounds: int = 2) -> tuple[object, Assignment, float]:
    """A Swiss of 3 whose first table was ended by the round's time limit and recorded."""
    t, _users = running(3, round_minutes=30, match_target=1000, rounds=rounds)
    rnd = t.round_set.get()
    limit = (rnd.ends_at - START).total_seconds() / 60
    a = Assignment.objects.get(round=rnd)
    step(t, limit)
    play_to_end(Table.objects.get(pk=a.table_id))
    settle(t, limit + 1)
    a.refresh_from_db()
    return t, a, limit


def test_the_replay_of_a_table_cut_by_the_clock_opens(client) -> None:
    _t, a, _limit = cut_table()
    page = client.get(reverse("games:replay", args=[a.table_id]))
    assert page.status_code == 200
    assert "Ended by the time limit" in page.content.decode()


def test_the_table_page_of_a_cut_table_names_its_tournament_round_and_the_players_place(
    client,
) -> None:
    t, a, _limit = cut_table()
    seat = a.seats.exclude(user=None).first()
    client.force_login(seat.user)
    page = client.get(reverse("games:table", args=[a.table_id])).content.decode()
    assert t.name in page and "round 1, table 1" in page
    assert "Ended by the time limit" in page
    assert f"You placed {seat.place} at this table" in page
    assert "has no result" not in page


def test_the_panel_sends_the_player_to_his_next_table_once_it_is_open(client) -> None:
    t, a, limit = cut_table()
    seat = a.seats.exclude(user=None).first()
    client.force_login(seat.user)
    settle(t, limit + 2)  # round 2 seated and its tables open
    nxt = Assignment.objects.get(round__tournament=t, round__number=2, seats__user=seat.user)
    panel = client.get(reverse("tournaments:table_panel", args=[a.table_id])).content.decode()
    assert reverse("games:table", args=[nxt.table_id]) in panel
    assert "Go to your next table" in panel


def test_after_the_last_round_the_panel_sends_the_player_to_the_tournament(client) -> None:
    t, a, _limit = cut_table(rounds=1)
    client.force_login(a.seats.exclude(user=None).first().user)
    panel = client.get(reverse("tournaments:table_panel", args=[a.table_id])).content.decode()
    assert reverse("tournaments:detail", args=[t.pk]) in panel and "Back to the tournament" in panel


def test_my_matches_says_a_table_was_ended_by_the_time_limit(client) -> None:
    _t, a, _limit = cut_table()
    client.force_login(a.seats.exclude(user=None).first().user)
    page = client.get(reverse("games:matches")).content.decode()
    assert "Ended by the time limit" in page and reverse("games:replay", args=[a.table_id]) in page


def test_a_table_outside_any_tournament_has_no_panel(client) -> None:
    assert client.get(reverse("tournaments:table_panel", args=[10**6])).status_code == 404
