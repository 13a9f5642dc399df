"""A round's time limit (and an arena's end) ends each unfinished table with a match
result (``finished_by`` = ``time``): the deal in play is finished, then the places go by
the scores; the tournament records it like any other result and a rated event moves the
ratings."""

from __future__ import annotations

import pytest

from games.models import MatchResult, Table
from ratings.models import RatingChange
from tests.games.helpers import committed, play_to_end
from tests.tournaments.helpers import START, running, step
from tournaments import services
from tournaments.models import Assignment, Standing

pytestmark = pytest.mark.django_db


def long_round(**fields: object) -> tuple[object, Assignment, float]:
    """A running Swiss of 3 whose matches go to 1000 (nobody wins within a deal or two),
    with a round limit of 30 minutes; its one table, and the limit in minutes from START."""
    t, _users = running(3, **{"round_minutes": 30, "match_target": 1000, **fields})
    rnd = t.round_set.get()
    assert rnd.ends_at is not None
    return t, Assignment.objects.get(round=rnd), (rnd.ends_at - START).total_seconds() / 60


def test_at_the_time_limit_the_table_finishes_its_deal_and_ends_with_a_time_result() -> None:
    t, a, limit = long_round()
    step(t, limit)
    a.refresh_from_db()
    assert a.status == Assignment.Status.STOPPING
    table = play_to_end(Table.objects.get(pk=a.table_id))
    result = MatchResult.objects.get(table=table)
    assert (result.finished_by, result.winner_seat, result.deals) == (
        "time",
        None,
        a.deals_at_limit + 1,
    )


def test_the_tournament_records_a_time_finished_table_by_its_result() -> None:
    t, a, limit = long_round()
    step(t, limit)
    table = play_to_end(Table.objects.get(pk=a.table_id))
    step(t, limit + 1)
    a.refresh_from_db()
    result = MatchResult.objects.get(table=table)
    assert a.status == Assignment.Status.FINISHED and a.stopped_early
    assert [s.place for s in a.seats.order_by("number")] == result.placements
    assert [s.score for s in a.seats.order_by("number")] == result.final_scores


def test_a_deal_still_unfinished_after_the_grace_is_cut_and_counted_to_its_last_complete_deal() -> (
    None
):
    t, a, limit = long_round()
    step(t, limit)
    step(t, limit + services.STOP_GRACE.total_seconds() / 60)
    a.refresh_from_db()
    result = MatchResult.objects.get(table_id=a.table_id)
    assert a.status == Assignment.Status.FINISHED and result.finished_by == "time"
    assert result.deals == a.deals_at_limit


def test_a_time_finished_table_of_a_rated_event_moves_its_players_ratings() -> None:
    t, a, limit = long_round(rated=True, preset="classic", match_target=None)
    with committed():
        step(t, limit)
    table = play_to_end(Table.objects.get(pk=a.table_id))
    result = MatchResult.objects.get(table=table)
    humans = [s.user_id for s in a.seats.all() if s.user_id is not None]
    changes = RatingChange.objects.filter(result=result, competitor__user_id__in=humans)
    assert changes.count() == len(humans) == 3


def test_the_standings_count_a_time_finished_table() -> None:
    t, a, limit = long_round()
    step(t, limit)
    play_to_end(Table.objects.get(pk=a.table_id))
    step(t, limit + 1)
    step(t, limit + 1)
    assert sum(s.matches for s in Standing.objects.filter(tournament=t)) == 3
