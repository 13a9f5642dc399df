"""What a duplicate event's pages tell a player and an organiser (docs/duplicate.md
"Pages and the admin"): the format's rules in words, each player's boards against the
room, the table panel that sends him to them, the standings by boards, and no seed taken
for a round the event never plays."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.tournaments.helpers import entered, play_round, settle, step
from tests.tournaments.test_duplicate_dealing import duplicate_cup
from tests.tournaments.test_pages import signed_in
from tournaments import errors, selectors, services
from tournaments.models import Assignment, DuplicateDealing, Tournament
from tournaments.selectors import duplicate as duplicate_selectors

pytestmark = pytest.mark.django_db


def test_the_rules_tell_the_boards_and_not_placement_points():
    rules = " ".join(selectors.rules_in_words(duplicate_cup(rounds=3, boards=4)))
    assert "Duplicate: 3 rounds of 4 boards." in rules
    assert "compared with everyone who held the same cards" in rules
    assert "placement points" not in rules and "Knockout" not in rules


def test_a_player_reads_each_of_his_boards_against_the_room():
    t = duplicate_cup()
    players = entered(t, 6)  # two tables: every board's cards were held twice
    settle(t, 0)
    play_round(t)
    settle(t, 1)
    me = players[0]

    page = signed_in(me).get(reverse("tournaments:round_boards", args=[t.pk, 1])).content.decode()

    assert page.count('class="board-row mine"') == 2  # his row of each board
    assert page.count('class="my-board"') == 2
    assert "Board 1: you took" in page and "where the room averaged" in page
    for a in Assignment.objects.filter(round__tournament=t, round__number=1):
        assert reverse("games:replay", args=[a.table_id]) in page  # the hands, the check


def test_a_board_nobody_else_held_counts_half_and_says_so():
    t = duplicate_cup()
    players = entered(t, 3)  # one table: nobody to compare with
    settle(t, 0)
    play_round(t)
    settle(t, 1)

    page = signed_in(players[0]).get(reverse("tournaments:round_boards", args=[t.pk, 1]))

    text = page.content.decode()
    assert "Board 1: you took" in text and "nobody else held these cards, so it counts 50%" in text


def test_a_visitor_sees_the_boards_without_a_line_of_his_own():
    t = duplicate_cup()
    entered(t, 3)
    settle(t, 0)
    play_round(t)
    settle(t, 1)
    boards = duplicate_selectors.round_boards(t, 1)
    assert boards is not None and boards.mine == [] and len(boards.boards) == 2


def test_the_table_panel_sends_a_player_to_the_boards_once_the_round_is_over():
    t = duplicate_cup()
    a, _b, _c = entered(t, 3)
    settle(t, 0)
    table = Assignment.objects.get(round__tournament=t).table_id
    assert selectors.table_panel(table_id=table, user=a).boards_url is None  # secret
    play_round(t)
    settle(t, 1)

    panel = selectors.table_panel(table_id=table, user=a)

    assert panel is not None and panel.duplicate
    assert panel.boards_url == reverse("tournaments:round_boards", args=[t.pk, 1])


def test_the_standings_show_boards_and_matchpoints_not_opponents_points(client):
    t = duplicate_cup()
    entered(t, 3)
    settle(t, 0)
    play_round(t)
    settle(t, 1)
    for url in ("tournaments:detail", "tournaments:standings_print"):
        text = client.get(reverse(url, args=[t.pk])).content.decode()
        assert "Matchpoints" in text and "Opp. points" not in text, url


def test_seating_the_last_round_commits_no_dealing_after_it():
    """There is no round after the last to deal: nothing is committed for one, and the
    page offers no seed once the last round's tables start."""
    t = duplicate_cup(rounds=1)
    a, _b, _c = entered(t, 3)
    step(t, 0)  # seated
    step(t, 0)  # the tables open: round 1's seeds are sealed

    assert not DuplicateDealing.objects.filter(tournament=t, round_number=2).exists()
    assert duplicate_selectors.open_dealing(t, a) is None


def test_no_seed_is_taken_for_a_round_cut_after_its_dealing_was_committed():
    """An organiser who cuts the rounds after the next round's dealing was committed: that
    dealing is never played, so the page offers no seed for it and the service takes none."""
    t = duplicate_cup(rounds=2)
    a, _b, _c = entered(t, 3)
    step(t, 0)  # seated: round 2's dealing is committed
    step(t, 0)  # the tables open: round 1's seeds are sealed
    assert DuplicateDealing.objects.filter(tournament=t, round_number=2).exists()
    Tournament.objects.filter(pk=t.pk).update(rounds=1)
    t.refresh_from_db()

    assert duplicate_selectors.open_dealing(t, a) is None
    with pytest.raises(errors.WrongState):
        services.entrant_seed_give(tournament=t, user=a, seed="for a round never played")


def test_a_table_done_before_the_round_offers_no_replay_until_the_round_is_over():
    """Its replay is closed while another table may still play the same boards: the table
    page offers none, rather than a link that answers 404."""
    from games.models import Table
    from tests.games.helpers import play_to_end

    t = duplicate_cup()
    entered(t, 6)
    settle(t, 0)
    first, _second = Assignment.objects.filter(round__tournament=t).order_by("number")
    play_to_end(Table.objects.get(pk=first.table_id))
    player = first.seats.exclude(user=None).first().user
    table_page = reverse("games:table", args=[first.table_id])
    replay = reverse("games:replay", args=[first.table_id])

    assert replay not in signed_in(player).get(table_page).content.decode()
    play_round(t)
    settle(t, 1)
    assert replay in signed_in(player).get(table_page).content.decode()


def test_the_exports_give_a_duplicate_event_its_boards_and_no_placement_points():
    t = duplicate_cup()
    entered(t, 6)
    settle(t, 0)
    play_round(t)
    settle(t, 1)

    standings = selectors.standings_rows(tournament=t)
    results = selectors.result_rows(tournament=t)

    assert {r["matches"] for r in standings} == {2}  # the boards each played
    assert {(r["wins"], r["opponents_points"], r["head_to_head"]) for r in standings} == {
        (None, None, None)
    }
    assert {r["points"] for r in results} == {None} and {r["place"] for r in results} != {None}
