"""The tournament state machine (tournaments/services/), driven step by step as the
Celery tick drives it, on live tables played through the games services."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from games.models import MatchResult, Table
from games.selectors import table_list_open
from tests.factories import UserFactory
from tests.games.helpers import committed
from tests.tournaments.helpers import (
    START,
    TournamentFactory,
    at,
    entered,
    play_round,
    running,
    settle,
    statuses,
    step,
)
from tournaments import errors, live, services
from tournaments.models import Assignment, AssignmentSeat, Registration, Round, Standing, Tournament
from tournaments.services import Step

pytestmark = pytest.mark.django_db

S = Tournament.Status
R = Registration.Status


def humans_of(rnd: Round) -> list[int]:
    return list(
        AssignmentSeat.objects.filter(assignment__round=rnd, user__isnull=False).values_list(
            "user_id", flat=True
        )
    )


# ----------------------------------------------------------------------------- transitions


def test_a_draft_is_not_stepped_until_it_is_scheduled() -> None:
    t = TournamentFactory(status=S.DRAFT)
    assert step(t, 0) == Step.NOTHING and t.status == S.DRAFT
    services.tournament_schedule(tournament=t)
    t.refresh_from_db()
    assert t.status == S.SCHEDULED


def test_the_tick_opens_registration_when_its_time_comes() -> None:
    t = TournamentFactory(registration_opens_at=at(-60))
    assert step(t, -61) == Step.NOTHING
    assert step(t, -60) == Step.REGISTRATION and t.status == S.REGISTRATION


def test_the_tick_opens_check_in_before_the_start() -> None:
    t = TournamentFactory(check_in_minutes=15)
    entered(t, 3, checked_in=False)
    assert step(t, -16) == Step.NOTHING
    assert step(t, -15) == Step.CHECK_IN and t.status == S.CHECK_IN


def test_the_start_drops_players_who_did_not_check_in() -> None:
    t = TournamentFactory(check_in_minutes=15)
    users = entered(t, 4, checked_in=False)
    step(t, -15)
    for user in users[:3]:
        services.registration_check_in(tournament=t, user=user)
    assert step(t, 0) == Step.START and t.status == S.RUNNING
    assert statuses(t)[users[3].pk] == R.NO_SHOW
    assert sorted(humans_of(t.round_set.get())) == sorted(u.pk for u in users[:3])


def test_a_start_with_fewer_than_two_players_cancels() -> None:
    t = TournamentFactory()
    entered(t, 1)
    step(t, 0)
    assert t.status == S.CANCELLED and t.cancel_reason


def test_start_seats_round_one_and_the_next_step_opens_its_live_tables() -> None:
    t, _users = running(6)
    rnd = t.round_set.get()
    assert rnd.status == Round.Status.PLAYING
    tables = Table.objects.filter(tournament_assignment__round=rnd)
    assert tables.count() == 2 and all(t.status == Table.Status.PLAYING for t in tables)
    # Anyone may watch them, and nobody finds them in the lobby's open tables.
    assert not any(table.is_private for table in tables)
    assert not table_list_open().filter(pk__in=tables).exists()


def test_a_field_of_seven_at_tables_of_three_gets_two_bots_at_the_bottom_tables() -> None:
    t, _users = running(7)
    seats = AssignmentSeat.objects.filter(assignment__round__tournament=t)
    bots_by_table = {
        a.number: a.seats.filter(user=None).count()
        for a in Assignment.objects.filter(round__tournament=t)
    }
    assert bots_by_table == {1: 0, 2: 1, 3: 1}
    assert seats.filter(user__isnull=False).count() == 7
    live_bots = Table.objects.filter(tournament_assignment__round__tournament=t, seats__user=None)
    assert live_bots.count() == 2  # the live tables have the bots too


def test_the_live_tables_seat_everyone_where_the_assignment_says() -> None:
    t, _users = running(6)
    for a in Assignment.objects.filter(round__tournament=t):
        planned = {s.number: s.user_id for s in a.seats.all()}
        actual = {s.number: s.user_id for s in a.table.seats.all()}
        assert planned == actual


def test_a_finished_match_is_recorded_into_the_standings() -> None:
    t, _users = running(6, rounds=1)
    play_round(t)
    settle(t, 30)
    points = dict(Standing.objects.filter(tournament=t).values_list("user_id", "points"))
    places = dict(
        AssignmentSeat.objects.filter(
            assignment__round__tournament=t, user__isnull=False
        ).values_list("user_id", "place")
    )
    # 3/1/0 by place (equal final scores share a place and its points).
    assert points == {user: {1: 3, 2: 1}.get(place, 0) for user, place in places.items()}


def test_a_result_is_recorded_once_however_often_it_arrives() -> None:
    t, _users = running(3)
    play_round(t)
    result = MatchResult.objects.get(table__tournament_assignment__round__tournament=t)
    assert services.assignment_record_result(result_id=result.pk) is None
    assert (
        AssignmentSeat.objects.filter(assignment__round__tournament=t, points__isnull=False).count()
        == 3
    )


def test_rounds_follow_one_another_and_the_tournament_finishes_with_standings() -> None:
    t, _users = running(6, rounds=2)
    play_round(t)
    assert Step.SEATED in settle(t, 30)
    assert t.round_set.get(number=2).status == Round.Status.PLAYING
    play_round(t)
    assert Step.FINISHED in settle(t, 60)
    assert t.status == S.FINISHED
    matches = list(Standing.objects.filter(tournament=t).values_list("matches", flat=True))
    assert matches == [2] * 6


def test_round_two_avoids_round_ones_opponents() -> None:
    t, _users = running(9, rounds=2)
    play_round(t)
    settle(t, 30)
    met = {
        frozenset(a.seats.exclude(user=None).values_list("user_id", flat=True))
        for a in Assignment.objects.filter(round__number=1, round__tournament=t)
    }
    for a in Assignment.objects.filter(round__number=2, round__tournament=t):
        group = set(a.seats.exclude(user=None).values_list("user_id", flat=True))
        assert all(len(group & previous) <= 1 for previous in met)


# ----------------------------------------------------------------------------- robustness


def test_two_steps_at_once_seat_a_round_once() -> None:
    t = TournamentFactory()
    entered(t, 6)
    services.tournament_start(tournament=t, now=at(0))
    services.tournament_start(tournament=t, now=at(0))  # a second tick, same moment
    step(t, 0)
    step(t, 0)
    assert t.round_set.count() == 1
    assert Table.objects.filter(tournament_assignment__round__tournament=t).count() == 2


def test_a_worker_killed_while_opening_tables_leaves_the_rest_to_the_next_step(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    t = TournamentFactory()
    entered(t, 9)
    step(t, 0)
    real = live.table_open
    calls = {"n": 0}

    def dies_on_the_second(**kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 2:
            raise SystemExit("worker killed")
        return real(**kwargs)

    monkeypatch.setattr(live, "table_open", dies_on_the_second)
    with pytest.raises(SystemExit):
        step(t, 0)
    assert Assignment.objects.filter(round__tournament=t).exclude(table=None).count() == 1
    monkeypatch.setattr(live, "table_open", real)
    step(t, 0)
    assert Assignment.objects.filter(round__tournament=t, table=None).count() == 0
    assert Table.objects.filter(tournament_assignment__round__tournament=t).count() == 3
    assert t.round_set.get().status == Round.Status.PLAYING


def test_a_lost_result_task_is_picked_up_by_the_next_step(monkeypatch: pytest.MonkeyPatch) -> None:
    from tournaments import tasks

    t, _users = running(3)
    monkeypatch.setattr(tasks.record_result, "delay", lambda result_id: None)  # the task is lost
    play_round(t)
    assert Assignment.objects.get(round__tournament=t).status == Assignment.Status.PLAYING
    step(t, 30)
    assert Assignment.objects.get(round__tournament=t).status == Assignment.Status.FINISHED


def test_a_player_who_withdraws_mid_event_is_not_seated_again_but_keeps_his_points() -> None:
    t, users = running(6, rounds=3)
    play_round(t)
    settle(t, 30)
    play_round(t)
    services.registration_withdraw(tournament=t, user=users[0])
    settle(t, 60)
    assert t.round_set.filter(number=3).exists()
    assert users[0].pk not in humans_of(t.round_set.get(number=3))
    assert Standing.objects.filter(tournament=t, user=users[0], matches=2).exists()


def test_a_disqualified_player_resigns_his_table_and_is_listed_last_without_a_rank() -> None:
    t, users = running(3)
    reg = Registration.objects.get(tournament=t, user=users[0])
    with committed():
        services.registration_disqualify(registration=reg, reason="abuse")
    seat = Table.objects.get(tournament_assignment__round__tournament=t).seats.get(user=users[0])
    assert seat.resigned
    last = Standing.objects.filter(tournament=t).order_by("position").last()
    assert last is not None and last.user_id == users[0].pk and last.rank is None


def test_bots_are_never_in_the_standings() -> None:
    t, users = running(4)  # two tables of two and a bot
    play_round(t)
    settle(t, 30)
    assert set(Standing.objects.filter(tournament=t).values_list("user_id", flat=True)) == {
        u.pk for u in users
    }


def test_a_round_can_be_reseated_only_before_its_tables_open() -> None:
    t = TournamentFactory(break_seconds=300)
    entered(t, 9)
    step(t, 0)
    rnd = t.round_set.get()
    before = sorted(humans_of(rnd))
    new = services.round_reseat(round=rnd, now=at(1))
    assert new.pk != rnd.pk and new.number == 1 and sorted(humans_of(new)) == before
    settle(t, 7)  # the break is over: the tables open
    with pytest.raises(errors.WrongState):
        services.round_reseat(round=t.round_set.get())


def test_pause_holds_the_next_round_and_resume_lets_it_go() -> None:
    t = TournamentFactory()
    entered(t, 6)
    step(t, 0)
    services.tournament_pause(tournament=t)
    step(t, 1)
    assert Assignment.objects.filter(round__tournament=t).exclude(table=None).count() == 0
    services.tournament_pause(tournament=t, paused=False)
    step(t, 2)
    assert Assignment.objects.filter(round__tournament=t, table=None).count() == 0


def test_cancel_stops_the_live_tables_each_with_a_result() -> None:
    t, _users = running(3)
    with committed():
        services.tournament_cancel(tournament=t, reason="storm")
    t.refresh_from_db()
    assert t.status == S.CANCELLED
    table = Table.objects.get(tournament_assignment__round__tournament=t)
    assert table.status == Table.Status.FINISHED
    assert MatchResult.objects.get(table=table).finished_by == "abandoned"


def test_an_amended_result_changes_the_standings() -> None:
    t, _users = running(3, rounds=1)
    play_round(t)
    settle(t, 30)
    a = Assignment.objects.get(round__tournament=t)
    seats = list(a.seats.order_by("number"))
    winner = next(s for s in seats if s.place == 1)
    others = [s for s in seats if s is not winner]
    places = [3 if s is winner else 1 if s is others[0] else 2 for s in seats]
    services.assignment_amend(assignment=a, places=places, reason="scoring error")
    assert Standing.objects.get(tournament=t, user_id=winner.user_id).points == 0
    assert Standing.objects.get(tournament=t, position=1).points == 3


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_a_step_skips_a_tournament_another_worker_is_stepping() -> None:
    import threading

    from django.db import connection, transaction

    from tests.integration.conftest import require_postgres_database

    require_postgres_database()  # row locks
    t = TournamentFactory()
    entered(t, 6)
    locked, release = threading.Event(), threading.Event()

    def other_worker() -> None:
        with transaction.atomic():
            Tournament.objects.select_for_update().get(pk=t.pk)
            locked.set()
            release.wait(10)
        connection.close()

    worker = threading.Thread(target=other_worker)
    worker.start()
    try:
        assert locked.wait(10)
        assert services.tournament_step(tournament_id=t.pk, now=at(0)) == Step.BUSY
    finally:
        release.set()
        worker.join()
    assert services.tournament_step(tournament_id=t.pk, now=at(0)) == Step.START
    assert Round.objects.filter(tournament=t).count() == 1


# ----------------------------------------------------------------------------- formats


def test_knockout_sends_table_winners_to_a_final_table() -> None:
    t, _users = running(7, format=Tournament.Format.KNOCKOUT, rounds=None, advance=1)
    assert Assignment.objects.filter(round__number=1, round__tournament=t).count() == 3
    play_round(t)
    assert Step.SEATED in settle(t, 30)
    final = t.round_set.get(number=2)
    assert final.assignments.count() == 1 and len(humans_of(final)) == 3
    play_round(t)
    assert Step.FINISHED in settle(t, 60)
    top = Standing.objects.get(tournament=t, position=1)
    assert top.stage == 2


def test_arena_seats_free_players_and_takes_late_entries() -> None:
    t = TournamentFactory(format=Tournament.Format.ARENA, rounds=None, duration_minutes=60)
    entered(t, 3)
    settle(t, 0)
    assert Assignment.objects.filter(round__tournament=t).exclude(table=None).count() == 1
    late = [UserFactory() for _ in range(3)]
    for user in late:
        services.registration_create(tournament=t, user=user, now=at(5))
    settle(t, 5)
    assert Assignment.objects.filter(round__tournament=t).exclude(table=None).count() == 2


def test_arena_finishes_after_its_duration_once_the_tables_are_done() -> None:
    t = TournamentFactory(format=Tournament.Format.ARENA, rounds=None, duration_minutes=10)
    entered(t, 3)
    settle(t, 0)
    play_round(t)
    assert Step.FINISHED in settle(t, 11)


# ----------------------------------------------------------------------------- players


def test_registration_is_refused_outside_its_window() -> None:
    t = TournamentFactory()
    with pytest.raises(errors.RegistrationClosed):
        services.registration_create(tournament=t, user=UserFactory(), now=at(-60))


def test_registration_is_refused_when_full() -> None:
    t = TournamentFactory(max_players=2)
    entered(t, 2)
    with pytest.raises(errors.Full):
        services.registration_create(tournament=t, user=UserFactory(), now=at(-60))


def test_registration_checks_the_minimum_rating() -> None:
    t = TournamentFactory(min_rating=1800)
    services.tournament_open_registration(tournament=t, now=at(-100))
    with pytest.raises(errors.NotEligible):
        services.registration_create(tournament=t, user=UserFactory(), now=at(-60))
    assert not Registration.objects.filter(tournament=t).exists()


def test_registering_twice_is_refused_and_again_after_withdrawing_is_allowed() -> None:
    t = TournamentFactory()
    [user] = entered(t, 1)
    with pytest.raises(errors.AlreadyRegistered):
        services.registration_create(tournament=t, user=user, now=at(-60))
    services.registration_withdraw(tournament=t, user=user)
    services.registration_create(tournament=t, user=user, now=at(-60))
    assert statuses(t)[user.pk] == R.REGISTERED


def test_check_in_is_refused_before_its_window() -> None:
    t = TournamentFactory(check_in_minutes=10)
    [user] = entered(t, 1, checked_in=False)
    with pytest.raises(errors.CheckInClosed):
        services.registration_check_in(tournament=t, user=user)


def test_a_rated_tournament_must_play_its_preset_unchanged() -> None:
    with pytest.raises(errors.Invalid):
        services.tournament_create(
            created_by=None,
            name="Bad",
            preset="classic",
            match_target=500,
            rated=True,
            rounds=3,
            registration_opens_at=START - timedelta(days=1),
            starts_at=START,
        )


def test_the_tick_steps_only_tournaments_with_something_due() -> None:
    soon = TournamentFactory(registration_opens_at=at(-60))
    later = TournamentFactory(registration_opens_at=at(60), starts_at=at(120))
    TournamentFactory(status=S.DRAFT, registration_opens_at=at(-60))
    assert services.tournaments_due(at(-30)) == [soon.pk]
    assert sorted(services.tournaments_due(at(61))) == sorted([soon.pk, later.pk])


def test_a_rated_tournaments_matches_move_the_players_ratings() -> None:
    from ratings.models import RatingChange

    t, users = running(3, rated=True, preset="simple", match_target=None, rounds=1)
    play_round(t)
    assert Step.FINISHED in settle(t, 60)
    changed = set(RatingChange.objects.values_list("competitor__user_id", flat=True))
    assert changed == {u.pk for u in users}
