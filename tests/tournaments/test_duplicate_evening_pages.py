"""What a duplicate evening's players read while a round is played and after it: the
tables closed until the round is over say when they open, the placement points nobody
earns are given nowhere, the tie-break is stated (docs/duplicate.md)."""

from __future__ import annotations

import re

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


def played_round(**fields):
    """A duplicate cup whose round 1 is over (revealed) at two tables of three."""
    t = duplicate_cup(**fields)
    users = entered(t, 6)
    settle(t, 0)
    play_round(t)
    settle(t, 1)
    return t, users


TIE_BREAK = "ranked by matchpoints ÷ tops"


@pytest.mark.parametrize("url", ["tournaments:detail", "tournaments:standings_print"])
def test_the_standings_state_the_tie_break(client, url) -> None:
    t, _users = played_round()
    assert TIE_BREAK in client.get(reverse(url, args=[t.pk])).content.decode()


def test_the_boards_page_states_the_tie_break(client) -> None:
    t, _users = played_round()
    page = client.get(reverse("tournaments:round_boards", args=[t.pk, 1])).content.decode()
    assert TIE_BREAK in page


def test_the_rules_state_the_tie_break() -> None:
    from tournaments import selectors

    rules = " ".join(selectors.rules_in_words(duplicate_cup()))
    assert "then by matchpoints ÷ tops" in rules


def test_a_rated_duplicate_events_rules_say_the_rating_comes_from_comparing_boards() -> None:
    from tournaments import selectors

    rules = " ".join(selectors.rules_in_words(duplicate_cup(rated=True)))
    assert "Rated by comparing boards" in rules and "the matches count" not in rules


def test_while_round_one_is_played_the_standings_say_when_they_appear(client) -> None:
    t, _first, _second = round_in_play()
    page = client.get(reverse("tournaments:detail", args=[t.pk])).content.decode()
    assert "The standings appear when the first round is over." in page


def test_the_boards_page_has_the_site_header(client) -> None:
    t, _users = played_round()
    page = client.get(reverse("tournaments:round_boards", args=[t.pk, 1])).content.decode()
    assert 'class="site-header"' in page


def test_the_boards_page_gives_every_position_as_a_number() -> None:
    t, users = played_round()
    page = signed_in(users[0]).get(reverse("tournaments:round_boards", args=[t.pk, 1]))
    assert "first dealer</td>" not in page.content.decode()


def test_the_player_page_says_a_duplicate_round_was_rated_by_comparing_boards(client) -> None:
    _t, users = played_round(rated=True)
    page = client.get(reverse("ratings:player", args=[users[0].username])).content.decode()
    assert "duplicate: rated by comparing boards" in page


def test_a_duplicate_round_counts_no_win_for_the_tables_first_place() -> None:
    from ratings import selectors as rating_selectors
    from ratings.models import Rating

    _t, users = played_round(rated=True)
    winners = [u for u in users if rating_selectors.player_stats(user=u).wins]
    assert (winners, sum(r.wins for r in Rating.objects.all())) == ([], 0)


def test_a_duplicate_table_says_boards_where_the_event_says_boards() -> None:
    _t, first, _second = round_in_play()
    page = signed_in(player_at(first)).get(reverse("games:table", args=[first.table_id]))
    text = page.content.decode()
    # Whole words only: the club's strings name "a quick match: 12 deals" as a choice.
    assert "2 boards" in text and not re.search(r"(?<![\d])2 deals", text)


def test_a_duplicate_table_does_not_say_its_top_score_wins_the_match() -> None:
    _t, first, _second = round_in_play()
    page = signed_in(player_at(first)).get(reverse("games:table", args=[first.table_id]))
    assert "wins the match" not in page.content.decode()
