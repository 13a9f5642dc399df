"""The clock's signal: how often a player decides in near the same time whatever the
decision (no clock's pressure showing), on hand-built think times where the answer is
known, and from a rated table's action log."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from fairplay.models import Flag, PlayerSignal
from fairplay.scoring import HARD_CHOICES, MIN_TIMED, clock_counts, clock_z
from fairplay.services import match_screen
from games.models import TableAction
from tests.factories import UserFactory
from tests.fairplay.helpers import rated_table, record_of


def test_a_player_who_takes_the_same_time_at_every_decision_is_steady_throughout():
    moves = [(4.0 + 0.1 * (k % 3), 2 + k % 6) for k in range(20)]

    counts = clock_counts(moves)

    assert (counts.timed, counts.steady) == (20, 20)


def test_a_player_who_thinks_longer_on_hard_decisions_is_seldom_steady():
    # Quick on the obvious (two choices), slow and varied on the hard ones.
    moves = [(0.8, 2), (1.1, 2), (6.0, 7), (14.0, 9), (0.6, 2), (3.0, 4), (22.0, 8), (1.5, 3)]

    counts = clock_counts(moves)

    assert counts.timed == 8 and counts.steady <= 2
    assert counts.hard_seconds / counts.hard > 5 * counts.easy_seconds / counts.easy


def test_hard_and_easy_decisions_are_told_apart_by_the_choices():
    moves = [(1.0, HARD_CHOICES - 1)] * 4 + [(3.0, HARD_CHOICES)] * 4

    counts = clock_counts(moves)

    assert (counts.easy, counts.easy_seconds, counts.hard, counts.hard_seconds) == (4, 4.0, 4, 12.0)


def test_too_few_timed_decisions_count_nothing():
    assert clock_counts([(5.0, 3)] * (MIN_TIMED - 1)).timed == 0


def test_the_clock_score_is_high_only_for_a_share_far_above_the_others():
    assert clock_z(200, 190, 0.3) > 10
    assert abs(clock_z(200, 60, 0.3)) < 1


# ----------------------------------------------------------------- from the action log


def _log(table, record, think):
    """The action log of ``table`` as the services write it, with each person's action
    taking ``think(seat, choices_index)`` seconds after the one before."""
    now = timezone.now() - timedelta(days=1)
    people = set(table.seats.filter(user__isnull=False).values_list("number", flat=True))
    version = 0
    for d, deal in enumerate(record["deals"]):
        for item in deal["actions"]:
            version += 1
            seat = item["seat"]
            human = seat in people
            now += timedelta(seconds=think(seat, version) if human else 0.5)
            row = TableAction.objects.create(
                table=table, version=version, dealing=d, seat=seat, action=item,
                source=TableAction.Source.HUMAN if human else TableAction.Source.BOT,
            )  # fmt: skip
            TableAction.objects.filter(pk=row.pk).update(created_at=now)


def _varied(seed):
    rng = random.Random(seed)
    return lambda seat, version: rng.lognormvariate(1.2, 0.9)


@pytest.mark.django_db
def test_the_screening_counts_a_persons_think_times_from_the_action_log(settings):
    settings.FAIRPLAY_SCREEN_DECISIONS = 1
    steady, varied = UserFactory(), UserFactory()
    record = record_of("honest", seed=3, deals=6)
    table = rated_table(record, [steady, varied])
    _log(table, record, lambda seat, v: 4.0 if seat == 0 else _varied(v)(seat, v))

    match_screen(result_id=table.result.pk)

    mine, theirs = (PlayerSignal.objects.get(user=u) for u in (steady, varied))
    assert mine.timed > MIN_TIMED and mine.steady == mine.timed
    assert theirs.timed > MIN_TIMED and theirs.steady < theirs.timed / 2


@pytest.mark.django_db
def test_a_player_without_a_clocks_pressure_is_flagged_and_varied_ones_are_not(settings):
    settings.FAIRPLAY_SCREEN_DECISIONS = 1
    settings.FAIRPLAY_MIN_MATCHES = 3
    a, b, suspect = UserFactory(), UserFactory(), UserFactory()
    for seed in (1, 2, 3):
        record = record_of("honest", seed=seed, deals=6)
        table = rated_table(record, [a, b])
        _log(table, record, _varied(seed))
    for seed in (4, 5, 6):
        record = record_of("honest", seed=seed, deals=6)
        table = rated_table(record, [suspect, a])
        think = _varied(seed)
        _log(table, record, lambda seat, v, think=think: 5.0 if seat == 0 else think(seat, v))
    for table_result in _results():
        match_screen(result_id=table_result)

    flag = Flag.objects.get(kind=Flag.Kind.CLOCK)
    assert flag.user == suspect
    assert flag.evidence["counts"]["steady_share"] == 1.0
    assert not Flag.objects.filter(kind=Flag.Kind.CLOCK, user__in=[a, b]).exists()


def _results():
    from games.models import MatchResult

    return list(MatchResult.objects.order_by("pk").values_list("pk", flat=True))


@pytest.mark.django_db
def test_a_match_without_an_action_log_times_nothing(settings):
    settings.FAIRPLAY_SCREEN_DECISIONS = 1
    user = UserFactory()
    table = rated_table(record_of("honest", seed=2, deals=3), [user])

    match_screen(result_id=table.result.pk)

    assert PlayerSignal.objects.get(user=user).timed == 0
