"""The one service path: a whole match, and every rejection changing nothing."""

from __future__ import annotations

from typing import Any

import pytest

from games import errors, scheduler, services
from games import state as table_state
from games.engine import Match, Pass, Play, parse_card
from games.engine.fair import verify_record
from games.models import MatchResult, Table, TableAction
from tests.factories import UserFactory
from tests.games.helpers import committed, current, open_table, play_to_end, started_table

pytestmark = pytest.mark.django_db


def log_versions(table: Table) -> list[int]:
    return list(
        TableAction.objects.filter(table=table)
        .order_by("version")
        .values_list("version", flat=True)
    )


def test_a_match_with_two_bots_plays_to_its_end_and_writes_one_result() -> None:
    table, _ = started_table(preset="simple", options={"target": 300})
    play_to_end(table)
    result = MatchResult.objects.get(table=table)
    assert table.status == Table.Status.FINISHED and result.winner_seat is not None


def test_the_log_replays_to_the_stored_result() -> None:
    table, _ = started_table(preset="simple", options={"target": 300})
    play_to_end(table)
    result = MatchResult.objects.get(table=table)
    replayed = Match.from_record(result.record)
    assert (list(replayed.scores), replayed.winner) == (result.final_scores, result.winner_seat)


def test_the_log_has_one_row_per_version_without_gaps() -> None:
    table, _ = started_table(preset="simple", options={"target": 300})
    play_to_end(table)
    assert log_versions(table) == list(range(1, table.version + 1))


def test_every_deal_of_a_finished_match_verifies_against_its_commitment() -> None:
    table, _ = started_table(preset="simple", options={"target": 300})
    play_to_end(table)
    checks = verify_record(MatchResult.objects.get(table=table).record)
    assert checks and all(check.ok for check in checks)


def test_placements_put_the_winner_first_and_share_equal_scores() -> None:
    assert services.placements([500, 1010, 500], 1, [False, False, False]) == [2, 1, 2]


def test_placements_put_a_resigned_player_last() -> None:
    assert services.placements([900, 1010, 100], 1, [True, False, False]) == [3, 1, 2]


# -- rejections change nothing -------------------------------------------------------


def human_table() -> tuple[Table, int]:
    """Three people, no bots: the seat to act is always a person's."""
    table, _ = started_table(humans=3, bots=0)
    return table, current(table).match.to_act  # type: ignore[return-value]


def unchanged(table: Table, version: int, rows: int) -> bool:
    table.refresh_from_db()
    return table.version == version and TableAction.objects.filter(table=table).count() == rows


@pytest.mark.parametrize(
    ("make_call", "error"),
    [
        (
            lambda t, s: {
                "seat": s,
                "action": Play(parse_card("AS")),
                "expected_version": t.version,
            },
            errors.Illegal,
        ),
        (
            lambda t, s: {"seat": (s + 1) % 3, "action": Pass(), "expected_version": t.version},
            errors.NotYourTurn,
        ),
        (
            lambda t, s: {"seat": s, "action": Pass(), "expected_version": t.version + 1},
            errors.StaleVersion,
        ),
    ],
    ids=["illegal", "not your turn", "stale version"],
)
def test_a_rejected_action_raises_its_error_and_changes_nothing(make_call, error) -> None:  # type: ignore[no-untyped-def]
    table, seat = human_table()
    with pytest.raises(error):
        services.action_submit(table_id=table.pk, **make_call(table, seat))
    assert unchanged(table, 0, 0)


def test_an_action_at_a_table_that_has_not_started_is_refused() -> None:
    table, _ = open_table(humans=1, bots=1, players=3)
    with pytest.raises(errors.NotPlaying):
        services.action_submit(table_id=table.pk, seat=0, action=Pass(), expected_version=0)


def test_an_action_at_an_unknown_table_is_refused() -> None:
    with pytest.raises(errors.TableNotFound):
        services.action_submit(table_id=999_999, seat=0, action=Pass(), expected_version=0)


def test_a_resent_client_id_applies_once() -> None:
    table, seat = human_table()
    first = services.action_submit(
        table_id=table.pk, seat=seat, action=Pass(), expected_version=0, client_id="m1"
    )
    again = services.action_submit(
        table_id=table.pk, seat=seat, action=Pass(), expected_version=0, client_id="m1"
    )
    assert (first.duplicate, again.duplicate, again.version) == (False, True, 1) and unchanged(
        table, 1, 1
    )


def test_the_same_client_id_from_another_seat_is_its_own_message() -> None:
    table, seat = human_table()
    services.action_submit(
        table_id=table.pk, seat=seat, action=Pass(), expected_version=0, client_id="m1"
    )
    after = current(table).match.to_act
    applied = services.action_submit(
        table_id=table.pk, seat=after, action=Pass(), expected_version=1, client_id="m1"
    )
    assert applied.duplicate is False and applied.version == 2


# -- seats ---------------------------------------------------------------------------------


def test_a_private_table_needs_its_invite_code() -> None:
    table, _ = open_table(humans=1, bots=0, players=3, private=True)
    with pytest.raises(errors.Forbidden):
        services.table_join(table=table, user=UserFactory(), invite_code="guess")


def test_a_full_table_refuses_another_player() -> None:
    table, _ = open_table(humans=1, bots=2)
    with pytest.raises(errors.TableFull):
        services.table_join(table=table, user=UserFactory())


def test_a_table_with_a_free_seat_cannot_start() -> None:
    table, users = open_table(humans=1, bots=1, players=3)
    with pytest.raises(errors.Illegal):
        services.table_start(table=table, user=users[0])


def test_only_the_creator_starts_the_table() -> None:
    table, users = open_table(humans=2, bots=1)
    with pytest.raises(errors.Forbidden):
        services.table_start(table=table, user=users[1])


def test_a_rated_table_plays_its_preset_unchanged() -> None:
    with pytest.raises(errors.Malformed):
        services.table_create(user=UserFactory(), rated=True, options={"dark": True})


def test_the_last_person_leaving_an_open_table_closes_it() -> None:
    table, users = open_table(humans=1, bots=1, players=3)
    services.table_leave(table=table, user=users[0])
    table.refresh_from_db()
    assert table.status == Table.Status.ABANDONED


def test_a_resigned_seat_is_played_by_a_bot_to_the_end_and_finishes_last() -> None:
    table, users = started_table(humans=2, bots=1, preset="simple", options={"target": 300})
    with committed():
        services.table_resign(table=table, user=users[1])
    play_to_end(table)
    result = MatchResult.objects.get(table=table)
    assert result.placements[1] == 3


def test_when_every_person_resigns_the_match_ends_with_a_result_by_resignation() -> None:
    table, users = started_table()
    services.table_resign(table=table, user=users[0])
    table.refresh_from_db()
    result = MatchResult.objects.get(table=table)
    assert table.status == Table.Status.FINISHED and result.finished_by == "resigned"
    assert result.placements[0] == 3  # he resigned: last, whatever the score


def test_play_against_bots_now_starts_a_table_of_three() -> None:
    table = services.table_play_bots(user=UserFactory())
    assert (
        table.status == Table.Status.PLAYING and table.seats.filter(user__isnull=True).count() == 2
    )


# -- bots ------------------------------------------------------------------------------------


def test_a_stale_bot_turn_does_nothing() -> None:
    table, _ = started_table(humans=1, bots=2)
    jobs = scheduler.pending()
    with committed():
        scheduler.run_pending()
    table.refresh_from_db()
    version = table.version
    for fn, args in jobs:
        assert fn(*args) is False
    table.refresh_from_db()
    assert table.version == version


def test_people_playing_through_the_service_reach_the_end() -> None:
    # Each person plays the basic bot's choice: random legal play may never end a match
    # (13 of 300 random matches to 200 went past 20,000 actions in the engine).
    table, _ = started_table(humans=3, bots=0, preset="simple", options={"target": 200})
    play_to_end(table)
    assert MatchResult.objects.filter(table=table).exists()


def test_a_tournament_may_choose_the_first_dealer() -> None:
    table, users = open_table(humans=1, bots=2)
    with committed():
        services.table_start(table=table, user=users[0], first_dealer=2)
    table.refresh_from_db()
    assert table.first_dealer == 2 and current(table).match.deal.dealer == 2  # type: ignore[union-attr]


# -- a person acts for the seat he holds now ------------------------------------------


def holder(table: Table, seat: int) -> Any:
    return table.seats.select_related("user").get(number=seat).user


def test_a_person_acts_for_the_seat_he_holds() -> None:
    table, seat = human_table()
    applied = services.action_submit(
        table_id=table.pk, user=holder(table, seat), action=Pass(), expected_version=0
    )
    assert applied.version == 1 and TableAction.objects.get(table=table).seat == seat


def test_a_person_without_a_seat_at_the_table_may_not_act() -> None:
    table, _ = human_table()
    with pytest.raises(errors.NotSeated):
        services.action_submit(
            table_id=table.pk, user=UserFactory(), action=Pass(), expected_version=0
        )
    assert unchanged(table, 0, 0)


def test_a_person_who_resigned_may_not_act_though_the_kept_seats_are_from_before() -> None:
    table, seat = human_table()
    services.action_submit(
        table_id=table.pk, user=holder(table, seat), action=Pass(), expected_version=0
    )
    to_act = current(table).match.to_act
    assert to_act is not None and table_state.cached(table.pk) is not None  # the seats are kept
    services.table_resign(table=table, user=holder(table, to_act))
    with pytest.raises(errors.NotSeated):
        services.action_submit(
            table_id=table.pk, user=holder(table, to_act), action=Pass(), expected_version=1
        )
    assert unchanged(table, 1, 1)
