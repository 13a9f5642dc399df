"""A pure duplicate event: "every board starts from 0:0:0" (docs/duplicate.md,
docs/spec.md §3.8). The event puts the option on every table of the round; a table's
second board is then bid as if nobody had played the first, and the round's tables still
get the same cards by position."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import services as game_services
from games.engine import Bid, Give, Pass, WriteOff
from games.engine.deal import Phase
from games.models import MatchResult
from tests.factories import UserFactory
from tests.games.helpers import committed, current
from tests.tournaments.helpers import TournamentFactory, entered, play_round, settle
from tournaments import errors, services
from tournaments.duplicate import board_scores
from tournaments.models import Assignment, Round, Tournament
from tournaments.selectors import rules_in_words
from tournaments.selectors.duplicate import round_board_results

pytestmark = pytest.mark.django_db


def pure_cup(**fields):
    """Two boards a round, bidding in the red barred below 0, every board from 0:0:0."""
    return TournamentFactory(
        **{
            "format": Tournament.Format.DUPLICATE,
            "boards": 2,
            "boards_from_zero": True,
            "preset": "classic",
            "options": {"red_threshold": 0},
            "match_target": None,
            "rated": False,
            **fields,
        }
    )


def act(table, action) -> None:
    state = current(table)
    with committed():
        game_services.action_submit(
            table_id=table.pk,
            seat=state.match.to_act,
            action=action,
            expected_version=table.version,
        )
    table.refresh_from_db()


def write_off_board_one(table) -> int:
    """Both others pass, the forced bidder takes the talon at 100, gives and writes off
    (−100): returns his seat."""
    act(table, Pass())
    act(table, Pass())
    declarer = current(table).match.deal.declarer
    while current(table).match.phase is Phase.GIVING:
        act(table, next(a for a in current(table).match.legal_actions() if type(a) is Give))
    act(table, WriteOff())
    return declarer


def by_position(table) -> list[int]:
    match = current(table).match
    return [match.deal.hands[(match.dealer + p) % match.players] for p in range(match.players)]


def round_tables(t):
    return [a.table for a in Assignment.objects.filter(round__tournament=t).order_by("pk")]


def test_every_table_of_the_round_plays_its_boards_from_zero():
    t = pure_cup()
    entered(t, 6)
    settle(t, 0)
    tables = round_tables(t)
    assert len(tables) == 2
    for table in tables:
        options = current(table).match.options
        assert (options.deals, options.boards_from_zero) == (2, True)
        assert table.options["boards_from_zero"] is True


def test_a_player_below_the_red_threshold_bids_on_board_two_and_the_cards_stay_the_same():
    t = pure_cup()
    entered(t, 6)
    settle(t, 0)
    tables = round_tables(t)
    assert by_position(tables[0]) == by_position(tables[1])  # board 1
    declarers = [write_off_board_one(table) for table in tables]
    # Board 2 is the next dealing of the sequence at both tables, by position.
    assert by_position(tables[0]) == by_position(tables[1])

    table, declarer = tables[0], declarers[0]
    match = current(table).match
    assert match.scores[declarer] == -100  # the match's sum, below the red threshold 0
    assert match.deals_played == 1 and match.sitter is None
    # Board 2's dealer is the one who wrote off: the seat left of the forced bidder
    # passes, and then it is his turn, as from 0:0:0 with every bid open to him.
    assert match.dealer == declarer
    act(table, Pass())
    match = current(table).match
    assert match.to_act == declarer
    assert any(type(a) is Bid for a in match.legal_actions())


def test_only_a_duplicate_event_plays_every_board_from_zero():
    for fmt, extra in (("swiss", {"rounds": 3}), ("arena", {"duration_minutes": 60})):
        with pytest.raises(errors.Invalid, match="0:0:0"):
            services.tournament_create(
                created_by=UserFactory(),
                rated=False,
                name="Not duplicate",
                format=fmt,
                boards_from_zero=True,
                registration_opens_at=TournamentFactory.registration_opens_at.function(),
                starts_at=TournamentFactory.starts_at,
                **extra,
            )


def test_the_event_page_and_the_boards_page_say_every_board_starts_from_zero(client):
    t = pure_cup()
    assert any("0:0:0" in line for line in rules_in_words(t))
    assert not any("0:0:0" in line for line in rules_in_words(pure_cup(boards_from_zero=False)))
    page = client.get(reverse("tournaments:detail", args=[t.pk]))
    assert "Every board starts from 0:0:0" in page.content.decode()


def test_a_played_round_scores_each_board_by_its_own_points_and_says_so(client):
    t = pure_cup()
    entered(t, 6)
    settle(t, 0)
    play_round(t)
    settle(t, 1)  # the round is over and its boards revealed
    results, _names = round_board_results(Round.objects.get(tournament=t, number=1))
    assert len(board_scores(results)) == 12
    # Each table's match score is the sum of its boards' own points (§3.8).
    for result in MatchResult.objects.filter(table__tournament_assignment__round__tournament=t):
        assert result.record["options"]["boards_from_zero"] is True
        table = result.table.tournament_assignment.number
        for seat, score in enumerate(result.final_scores):
            position = (seat - result.record["first_dealer"]) % 3
            mine = [r.points for r in results if r.table == table and r.position == position]
            assert len(mine) == 2 and score == sum(mine)
    page = client.get(reverse("tournaments:round_boards", args=[t.pk, 1])).content.decode()
    assert "Every board started from 0:0:0" in page
