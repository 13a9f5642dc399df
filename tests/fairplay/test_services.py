"""Screening rated matches, the signals they add up to, flags and their review."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission

from fairplay.errors import FairPlayError
from fairplay.models import Flag, MatchScreen, PairSignal, PlayerSignal
from fairplay.services import flag_review, match_screen
from games.signals import match_finished
from tests.factories import UserFactory
from tests.fairplay.helpers import rated_table, record_of

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _few_decisions(settings):
    """Master is asked about a few decisions a match: the counts, not the search, are
    under test here."""
    settings.FAIRPLAY_SCREEN_DECISIONS = 3


def moderator():
    user = UserFactory(is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="review_flag"))
    return user


def _screen(kind, users, seeds, deals=8):
    for seed in seeds:
        table = rated_table(record_of(kind, seed=seed, deals=deals), users)
        match_screen(result_id=table.result.pk)


def test_a_rated_match_is_screened_once_and_counted_for_its_people():
    a, b = UserFactory(), UserFactory()
    table = rated_table(record_of("honest", seed=1, deals=3), [a, b])

    assert match_screen(result_id=table.result.pk) is not None
    assert match_screen(result_id=table.result.pk) is None
    assert MatchScreen.objects.get().people == [a.pk, b.pk, None]
    assert PlayerSignal.objects.get(user=a).matches == 1
    assert PairSignal.objects.get(user=a, other=b).matches == 1
    assert not PairSignal.objects.filter(other=a).exclude(user=b).exists()


def test_an_unrated_match_is_not_screened():
    table = rated_table(record_of("honest", seed=1, deals=2), [UserFactory()])
    table.rated = False
    table.save(update_fields=["rated"])

    assert match_screen(result_id=table.result.pk) is None
    assert not MatchScreen.objects.exists()


def test_a_finished_rated_match_is_screened_by_the_task_after_the_commit(
    django_capture_on_commit_callbacks,
):
    table = rated_table(record_of("honest", seed=2, deals=2), [UserFactory()])

    with django_capture_on_commit_callbacks(execute=True):
        match_finished.send(sender=None, result_id=table.result.pk, table_id=table.pk)

    assert MatchScreen.objects.filter(result=table.result).exists()


@pytest.mark.parametrize("kind", ["soft-play", "feeder"])
def test_a_colluding_pair_is_flagged_with_its_matches_as_evidence(settings, kind):
    settings.FAIRPLAY_MIN_MATCHES = 6
    settings.FAIRPLAY_PAIR_THRESHOLD = 1.5
    settings.FAIRPLAY_SOFT_PLAY_THRESHOLD = 1.5
    a, b = UserFactory(), UserFactory()

    _screen(kind, [a, b], range(1, 7))

    flag = Flag.objects.get(kind=Flag.Kind.PAIR)
    assert {flag.user_id, flag.partner_id} == {a.pk, b.pk}
    assert flag.status == Flag.Status.OPEN and flag.score >= flag.threshold == 1.5
    assert len(flag.evidence["matches"]) == 6


def test_soft_play_is_weighed_against_its_own_threshold_not_the_feeders(settings):
    settings.FAIRPLAY_MIN_MATCHES = 6
    settings.FAIRPLAY_PAIR_THRESHOLD = 50.0  # no feeding score reaches it
    settings.FAIRPLAY_SOFT_PLAY_THRESHOLD = 2.0
    a, b = UserFactory(), UserFactory()

    _screen("soft-play", [a, b], range(1, 7))

    flag = Flag.objects.get(kind=Flag.Kind.PAIR)
    assert flag.threshold == 2.0
    assert round(flag.score, 2) == flag.evidence["parts"]["soft_play"] >= 2.0


def test_a_feeders_flag_lists_the_decisions_that_fed_his_partner(settings):
    settings.FAIRPLAY_MIN_MATCHES = 6
    a, b = UserFactory(), UserFactory()

    _screen("feeder", [a, b], range(1, 7))

    decisions = Flag.objects.get().evidence["decisions"]
    assert decisions and all(d["points"] > 0 for d in decisions)
    assert {(d["from"], d["to"]) for d in decisions} >= {(a.username, b.username)}


def test_an_honest_pair_is_not_flagged(settings):
    settings.FAIRPLAY_MIN_MATCHES = 6

    _screen("honest", [UserFactory(), UserFactory()], range(1, 7))

    assert not Flag.objects.exists()


def test_nothing_is_flagged_before_the_least_number_of_matches(settings):
    settings.FAIRPLAY_MIN_MATCHES = 7

    _screen("soft-play", [UserFactory(), UserFactory()], range(1, 7))

    assert not Flag.objects.exists()


def test_a_player_agreeing_with_master_beyond_his_level_is_flagged(settings):
    settings.FAIRPLAY_MIN_MATCHES = 3
    settings.FAIRPLAY_SCREEN_DECISIONS = 16
    _screen("honest", [UserFactory(), UserFactory(), UserFactory()], range(1, 7), deals=4)
    suspect = UserFactory()

    _screen("engine", [suspect], range(7, 10), deals=4)

    flag = Flag.objects.get(kind=Flag.Kind.ENGINE, user=suspect)
    counts = flag.evidence["counts"]
    assert flag.partner is None
    assert flag.score >= settings.FAIRPLAY_ENGINE_THRESHOLD == 4.6
    assert counts["split_agreement"] > counts["split_expected"]
    assert counts["agreement"] > counts["expected"]
    assert flag.evidence["parts"]["likelihood_ratio_log"] == round(flag.score, 2)


def test_a_moderator_dismisses_an_open_flag(settings):
    settings.FAIRPLAY_MIN_MATCHES = 6
    _screen("feeder", [UserFactory(), UserFactory()], range(1, 7))
    mod = moderator()

    flag = flag_review(flag_id=Flag.objects.get().pk, user=mod, status="dismissed", note="friends")

    assert flag.status == Flag.Status.DISMISSED and flag.reviewed_by == mod


def test_a_reviewed_flag_cannot_be_reviewed_again(settings):
    settings.FAIRPLAY_MIN_MATCHES = 6
    _screen("feeder", [UserFactory(), UserFactory()], range(1, 7))
    flag_id = Flag.objects.get().pk
    flag_review(flag_id=flag_id, user=moderator(), status="warned")

    with pytest.raises(FairPlayError) as caught:
        flag_review(flag_id=flag_id, user=moderator(), status="cheating")
    assert caught.value.code == "decided"


def test_staff_without_the_moderators_right_cannot_review(settings):
    settings.FAIRPLAY_MIN_MATCHES = 6
    _screen("feeder", [UserFactory(), UserFactory()], range(1, 7))

    with pytest.raises(FairPlayError) as caught:
        flag_review(flag_id=Flag.objects.get().pk, user=UserFactory(is_staff=True), status="warned")
    assert caught.value.code == "not_moderator"


def test_a_dismissed_pair_is_not_flagged_again_by_its_next_match(settings):
    settings.FAIRPLAY_MIN_MATCHES = 6
    a, b = UserFactory(), UserFactory()
    _screen("feeder", [a, b], range(1, 7))
    flag_review(flag_id=Flag.objects.get().pk, user=moderator(), status="dismissed")

    _screen("feeder", [a, b], [7])

    assert Flag.objects.count() == 1


def _rated(user, rating):
    from ratings.models import Competitor, Rating

    competitor, _ = Competitor.objects.get_or_create(user=user)
    Rating.objects.create(competitor=competitor, players=3, rating=rating)
    return user


def test_players_of_a_high_level_are_screened_at_its_budget_and_counted_apart(settings):
    settings.FAIRPLAY_HIGH_LEVEL_RATING = 1800.0
    settings.FAIRPLAY_HIGH_LEVEL_SAMPLES = 8
    high, usual, unrated = _rated(UserFactory(), 1850), _rated(UserFactory(), 1600), UserFactory()

    _screen("honest", [high, usual, unrated], [1], deals=4)

    seats = MatchScreen.objects.get().data["seats"]
    assert [seats[s]["samples"] for s in "012"] == [8, 6, 6]
    mine, theirs = PlayerSignal.objects.get(user=high), PlayerSignal.objects.get(user=usual)
    assert mine.high_checked == 3 and mine.checked == 0
    assert theirs.checked == 3 and theirs.high_checked == 0
    assert PlayerSignal.objects.get(user=unrated).high_checked == 0


def test_without_the_high_level_setting_everybody_is_screened_alike(settings):
    assert settings.FAIRPLAY_HIGH_LEVEL_RATING is None
    high = _rated(UserFactory(), 2400)

    _screen("honest", [high], [1], deals=4)

    assert MatchScreen.objects.get().data["seats"]["0"]["samples"] == 6
    assert PlayerSignal.objects.get(user=high).high_checked == 0


def test_a_high_level_player_agreeing_with_master_beyond_his_level_is_flagged(settings):
    settings.FAIRPLAY_MIN_MATCHES = 3
    settings.FAIRPLAY_SCREEN_DECISIONS = 16
    settings.FAIRPLAY_HIGH_LEVEL_RATING = 1800.0
    settings.FAIRPLAY_HIGH_LEVEL_SAMPLES = 8
    honest = [_rated(UserFactory(), 1900) for _ in range(3)]
    _screen("honest", honest, range(1, 7), deals=4)
    suspect = _rated(UserFactory(), 1900)

    _screen("engine", [suspect], range(7, 10), deals=4)

    flag = Flag.objects.get(kind=Flag.Kind.ENGINE, user=suspect)
    counts = flag.evidence["counts"]
    assert counts["split"] == 0 and counts["high_split"] > 0
    assert counts["high_split_agreement"] > counts["high_split_expected"]
    assert flag.evidence["parts"]["likelihood_ratio_log_high"] == round(flag.score, 2)
    assert flag.score >= settings.FAIRPLAY_ENGINE_THRESHOLD
