"""A rated duplicate event (docs/ratings.md, "Duplicate events"): allowed with its
preset's rules and its boards; at the end of a round its tables are rated by board
comparison, bots never."""

from __future__ import annotations

import pytest

from games.models import MatchResult, TableAction
from ratings import elo
from ratings.models import DuplicateRound, Rating, RatingChange
from tests.factories import UserFactory
from tests.tournaments.helpers import (
    TournamentFactory,
    entered,
    play_round,
    play_round_away,
    settle,
)
from tests.tournaments.test_duplicate_dealing import duplicate_cup
from tournaments import errors, services
from tournaments.models import Round, Standing, Tournament
from tournaments.selectors.duplicate import round_board_results

pytestmark = pytest.mark.django_db


def rated_duplicate(**fields):
    return duplicate_cup(**{"rated": True, **fields})


def create(**fields):
    return services.tournament_create(
        **{
            "created_by": UserFactory(),
            "name": "D",
            "format": "duplicate",
            "rounds": 2,
            "boards": 4,
            "registration_opens_at": TournamentFactory.registration_opens_at.function(),
            "starts_at": TournamentFactory.starts_at,
            **fields,
        }
    )


def test_a_duplicate_event_needs_its_boards() -> None:
    with pytest.raises(errors.Invalid, match="boards"):
        create(boards=0)


def test_a_duplicate_event_may_be_rated_with_its_presets_rules() -> None:
    t = create(rated=True, preset="classic")
    assert t.rated and t.table_options()["deals"] == 4


def test_a_rated_duplicate_event_may_play_every_board_from_0_0_0() -> None:
    t = create(rated=True, preset="classic", boards_from_zero=True)
    assert t.rated and t.table_options()["boards_from_zero"] is True


def test_a_rated_pure_duplicate_round_opens_its_tables_and_is_rated() -> None:
    t = rated_duplicate(boards_from_zero=True)
    entered(t, 6)
    settle(t, 0)
    play_round(t)
    settle(t, 1)

    dup = DuplicateRound.objects.get()
    assert dup.results.count() == 2 and all(
        r.table.options["boards_from_zero"] for r in dup.results.select_related("table")
    )


def test_a_rated_duplicate_event_still_plays_its_presets_rules_unchanged() -> None:
    with pytest.raises(errors.Invalid, match="preset"):
        create(rated=True, preset="classic", match_target=500)


def expected_deltas(t: Tournament) -> dict[int, float]:
    """The board comparison of round 1 worked out from its tables' records, everyone new."""
    results, _ = round_board_results(Round.objects.get(tournament=t, number=1))
    people = sorted({r.entrant for r in results if r.entrant is not None})
    index = {p: i for i, p in enumerate(people)}
    groups: dict[tuple[int, int, int], list[tuple[int, float]]] = {}
    for r in results:
        assert r.entrant is not None
        groups.setdefault((r.board, r.dealing, r.position), []).append(
            (index[r.entrant], float(r.points))
        )
    changes = elo.rate_boards([(elo.START_RATING, 0)] * len(people), list(groups.values()))
    return {p: c.delta for p, c in zip(people, changes) if c is not None}


def test_a_rated_round_rates_its_tables_by_board_comparison_when_it_is_over() -> None:
    t = rated_duplicate()
    entered(t, 6)
    settle(t, 0)
    play_round(t)
    assert MatchResult.objects.filter(table__tournament_assignment__round__tournament=t).exists()
    settle(t, 1)

    dup = DuplicateRound.objects.get()
    assert dup.results.count() == 2 and dup.players == 3
    got = {c.competitor.user_id: c.delta for c in RatingChange.objects.select_related("competitor")}
    assert got == pytest.approx(expected_deltas(t))
    assert all(r.games == 1 for r in Rating.objects.all())


def test_an_unrated_duplicate_round_leaves_the_ratings_alone() -> None:
    t = rated_duplicate(rated=False)
    entered(t, 6)
    settle(t, 0)
    play_round(t)
    settle(t, 1)
    assert not DuplicateRound.objects.exists() and not RatingChange.objects.exists()


def test_bot_seats_of_a_rated_round_are_never_rated() -> None:
    t = rated_duplicate()
    entered(t, 5)  # two tables of three: one seat goes to a bot
    settle(t, 0)
    play_round(t)
    settle(t, 1)
    assert DuplicateRound.objects.exists()
    assert RatingChange.objects.filter(competitor__user__isnull=True).count() == 0
    assert not Rating.objects.filter(competitor__user__isnull=True).exists()
    assert RatingChange.objects.count() == 5


def test_an_entrant_left_to_the_clock_on_every_board_gains_no_rating_from_them() -> None:
    t = rated_duplicate()
    users = entered(t, 6)
    settle(t, 0)
    absent = users[0]
    play_round_away(t, absent)
    settle(t, 1)

    assert DuplicateRound.objects.exists()
    assert not RatingChange.objects.filter(competitor__user=absent).exists()


def test_the_others_are_still_rated_against_the_boards_played_for_an_absent_entrant() -> None:
    t = rated_duplicate()
    users = entered(t, 6)
    settle(t, 0)
    play_round_away(t, users[0])
    settle(t, 1)

    assert RatingChange.objects.exclude(competitor__user=users[0]).count() == 5


def test_the_record_says_which_boards_the_clock_played_for_an_absent_entrant() -> None:
    t = rated_duplicate()
    users = entered(t, 6)
    settle(t, 0)
    play_round_away(t, users[0])
    result = MatchResult.objects.get(table__seats__user=users[0])
    seat = result.table.seats.get(user=users[0]).number
    # Every dealing in which his seat had a turn (a redeal may end before it comes).
    had_a_turn = sorted(
        set(
            TableAction.objects.filter(table=result.table, seat=seat).values_list(
                "dealing", flat=True
            )
        )
    )
    assert had_a_turn and result.record["meta"]["played_for"][seat] == had_a_turn


def test_an_entrant_left_to_the_clock_scores_no_matchpoints_in_the_standings() -> None:
    t = rated_duplicate()
    users = entered(t, 6)
    settle(t, 0)
    play_round_away(t, users[0])
    settle(t, 1)

    standing = Standing.objects.get(tournament=t, user=users[0])
    assert (standing.points, standing.game_score) == (0, 0)
