"""A match cut short — by a tournament round's time limit, by everyone resigning, by an
organiser — still ends with a result: places by the scores after the last complete
deal (equal scores share a place, resigned players last), a ``finished_by`` reason, and
the record of the complete deals, which replays."""

from __future__ import annotations

import pytest

from games import errors, scheduler, services
from games.engine.cards import mask_cards
from games.engine.replay import replay as replay_record
from games.models import FinishedBy, MatchResult, Table
from tests.games.helpers import (
    committed,
    current,
    human_turn,
    open_table,
    play_to_end,
    started_table,
)

pytestmark = pytest.mark.django_db


def long_table(**kwargs: object) -> tuple[Table, list[object]]:
    """One person and two bots, a match to 1000: nobody wins within a deal or two."""
    return started_table(humans=1, bots=2, preset="classic", **kwargs)  # type: ignore[arg-type]


def play_until(table: Table, done: object, limit: int = 5_000) -> None:
    """Run bot turns and the person's turns until ``done(state)`` holds."""
    for _ in range(limit):
        if done(current(table)):  # type: ignore[operator]
            return
        with committed():
            if scheduler.run_pending(limit=1):
                continue
        if not human_turn(table):
            raise AssertionError("nobody can move")
    raise AssertionError("never got there")


def test_a_match_told_to_finish_after_its_deal_ends_with_a_result_when_that_deal_is_complete() -> (
    None
):
    table, _users = long_table()
    assert services.table_finish_after_deal(table=table)
    play_to_end(table)
    table.refresh_from_db()
    result = MatchResult.objects.get(table=table)
    assert table.status == Table.Status.FINISHED
    assert (result.finished_by, result.deals, result.winner_seat) == ("time", 1, None)


def test_a_time_finished_match_places_players_by_score_with_equal_scores_sharing() -> None:
    assert services.placements([40, 40, -20], None, [False] * 3) == [1, 1, 3]
    assert services.placements([0, 0, 0], None, [False] * 3) == [1, 1, 1]
    assert services.placements([120, 40, 40], None, [False, False, False]) == [1, 2, 2]


def test_a_resigned_player_is_last_in_a_time_finished_match_whatever_his_score() -> None:
    assert services.placements([200, 40, -20], None, [True, False, False]) == [3, 1, 2]


def test_the_result_of_a_time_finished_match_agrees_with_its_own_record() -> None:
    table, _users = long_table()
    services.table_finish_after_deal(table=table)
    play_to_end(table)
    result = MatchResult.objects.get(table=table)
    replayed = replay_record(result.record)
    assert "error" not in replayed and replayed["winner"] is None
    assert len(replayed["deals"]) == result.deals
    assert replayed["deals"][-1]["scores"] == result.final_scores
    assert result.record["meta"]["finished_by"] == "time"


def test_finishing_now_counts_the_match_up_to_its_last_complete_deal() -> None:
    table, _users = long_table()
    # Into the second deal: one complete, the next under way with some actions taken.
    play_until(
        table,
        lambda s: (
            len(s.match.results) >= 1
            and s.match.deal is not None
            and len(s.match.log[-1].actions) >= 2
        ),
    )
    scores_after_first = list(current(table).match.results[-1].scores)
    deals_done = len(current(table).match.results)
    with committed():
        result = services.table_finish_now(table=table, finished_by=FinishedBy.TIME)
    assert result.deals == deals_done and len(result.record["deals"]) == deals_done
    assert result.final_scores == scores_after_first
    assert "error" not in replay_record(result.record)


def test_the_deal_cut_short_is_not_in_the_record_so_no_hidden_card_is_shown() -> None:
    table, _users = long_table()
    play_until(table, lambda s: s.match.deal is not None and len(s.match.log[-1].actions) >= 1)
    state = current(table)
    done = len(state.match.results)
    in_play = [[str(c) for c in mask_cards(h)] for h in state.match.log[-1].hands]
    with committed():
        result = services.table_finish_now(table=table, finished_by=FinishedBy.TIME)
    assert result.deals == done and len(result.record["deals"]) == done
    assert all(deal["hands"] != in_play for deal in result.record["deals"])


def test_an_organiser_stopping_a_match_in_play_gives_it_a_result_by_abandonment() -> None:
    table, _users = long_table()
    with committed():
        services.table_abandon(table=table)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    assert MatchResult.objects.get(table=table).finished_by == "abandoned"


def test_stopping_a_table_that_never_started_writes_no_result() -> None:
    table, _users = open_table(humans=1, bots=1)
    services.table_abandon(table=table)
    table.refresh_from_db()
    assert (
        table.status == Table.Status.ABANDONED
        and not MatchResult.objects.filter(table=table).exists()
    )


def test_a_match_cannot_be_finished_early_as_won_and_nothing_changes() -> None:
    table, _users = long_table()
    with pytest.raises(errors.Malformed):
        services.table_finish_after_deal(table=table, finished_by="won")
    table.refresh_from_db()
    assert table.finish_after_deals is None and table.status == Table.Status.PLAYING


def test_asking_twice_keeps_the_first_moment() -> None:
    table, _users = long_table()
    services.table_finish_after_deal(table=table)
    play_until(table, lambda s: len(s.match.results) >= 1 or s.match.over)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    assert not services.table_finish_after_deal(table=table)


def test_a_finished_match_reports_its_reason_to_the_players() -> None:
    table, _users = long_table()
    with committed():
        services.table_finish_now(table=table, finished_by=FinishedBy.TIME)
    from games import selectors

    message = selectors.table_state_message(table_id=table.pk, user=_users[0])
    assert message["result"]["finished_by"] == "time"
    assert message["table"]["status"] == "finished"


def test_a_table_of_two_deals_ends_after_them_with_places_and_finished_by_deals() -> None:
    # docs/spec.md §3.7: the option deals; the result says how it ended and the record too.
    table, _users = started_table(humans=1, bots=2, preset="classic", options={"deals": 2})
    play_to_end(table)
    result = MatchResult.objects.get(table=table)
    replayed = replay_record(result.record)
    counted = [d for d in replayed["deals"] if d["outcome"] != "redeal"]
    assert result.finished_by == FinishedBy.DEALS == replayed["finished_by"]
    assert len(counted) == 2 and replayed["deals"][-1]["scores"] == result.final_scores
    assert result.placements == replayed["placements"] == result.record["meta"]["placements"]
    assert result.record["meta"]["finished_by"] == "deals"
    top = max(result.final_scores)
    assert result.winner_seat == (
        result.final_scores.index(top) if result.final_scores.count(top) == 1 else None
    )
    assert "2 deals" in result.ending()


def test_a_table_refuses_a_match_length_outside_1_to_100() -> None:
    with pytest.raises(errors.Malformed, match="deals"):
        open_table(humans=1, bots=0, players=3, preset="classic", options={"deals": 101})
