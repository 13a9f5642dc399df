"""Marking as cheating voids the player's rated results from a date; undoing it gives
every rating back exactly."""

from __future__ import annotations

from datetime import timedelta

import pytest

from fairplay.errors import FairPlayError
from fairplay.models import Flag
from fairplay.services import flag_review, match_screen
from fairplay.voiding import flag_void, voiding_undo
from ratings.models import Rating
from ratings.selectors import competitor_of
from ratings.services import rating_apply_result
from tests.factories import UserFactory
from tests.fairplay.helpers import rated_table, record_of
from tests.fairplay.test_services import moderator
from tests.ratings.helpers import finished_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def cheat(settings):
    """A feeder's pair (a, b) flagged after six screened matches (before the matches
    each test rates)."""
    settings.FAIRPLAY_SCREEN_DECISIONS = 1
    settings.FAIRPLAY_MIN_MATCHES = 6
    a, b = UserFactory(), UserFactory()
    for seed in range(1, 7):
        match_screen(
            result_id=rated_table(record_of("feeder", seed=seed, deals=6), [a, b]).result.pk
        )
    return Flag.objects.get()


def _rating(user):
    row = Rating.objects.get(competitor=competitor_of(user), players=3)
    return round(row.rating, 9), row.games


def _ratings():
    return sorted((r.competitor_id, round(r.rating, 9), r.games) for r in Rating.objects.all())


def test_voiding_gives_a_victim_back_the_rating_he_had_before_the_cheats_matches(cheat):
    mod = moderator()
    flag_review(flag_id=cheat.pk, user=mod, status="cheating")
    victim = UserFactory()
    start = cheat.created_at + timedelta(days=1)
    before = finished_match([cheat.user, victim, "basic"], at=start, seed=1)
    rating_apply_result(result_id=before.pk)
    kept = _rating(victim)
    for day, seats in ((1, [cheat.user, victim, "basic"]), (2, [victim, cheat.partner, "basic"])):
        later = finished_match(seats, at=start + timedelta(days=day), seed=day + 1)
        rating_apply_result(result_id=later.pk)
    assert _rating(victim) != kept

    voiding = flag_void(flag_id=cheat.pk, user=mod, since=start + timedelta(hours=12))

    assert _rating(victim) == kept
    assert len(voiding.results) == 2


def test_undoing_a_voiding_gives_every_rating_back_exactly(cheat):
    mod = moderator()
    flag_review(flag_id=cheat.pk, user=mod, status="cheating")
    victim = UserFactory()
    start = cheat.created_at + timedelta(days=1)
    for day in range(3):
        result = finished_match(
            [cheat.user, victim, "basic"], at=start + timedelta(days=day), seed=day + 1
        )
        rating_apply_result(result_id=result.pk)
    ratings = _ratings()
    voiding = flag_void(flag_id=cheat.pk, user=mod, since=start + timedelta(hours=12))
    assert _ratings() != ratings

    voiding_undo(voiding_id=voiding.pk, user=mod)

    assert _ratings() == ratings


def test_a_flag_not_marked_as_cheating_voids_nothing(cheat):
    with pytest.raises(FairPlayError) as caught:
        flag_void(flag_id=cheat.pk, user=moderator(), since=cheat.created_at)
    assert caught.value.code == "not_cheating"


def test_a_flag_is_voided_once(cheat):
    mod = moderator()
    flag_review(flag_id=cheat.pk, user=mod, status="cheating")
    flag_void(flag_id=cheat.pk, user=mod, since=cheat.created_at - timedelta(days=1))

    with pytest.raises(FairPlayError) as caught:
        flag_void(flag_id=cheat.pk, user=mod, since=cheat.created_at - timedelta(days=1))
    assert caught.value.code == "voided"


def test_only_moderators_void(cheat):
    flag_review(flag_id=cheat.pk, user=moderator(), status="cheating")

    with pytest.raises(FairPlayError):
        flag_void(flag_id=cheat.pk, user=UserFactory(is_staff=True), since=cheat.created_at)


@pytest.mark.parametrize("days", [1, 2, 3])
def test_unmarking_a_voided_flag_gives_every_rating_back_exactly(cheat, days):
    from fairplay.services import flag_unmark

    mod = moderator()
    start = cheat.created_at + timedelta(days=1)
    for day in range(days):
        seats = [cheat.user, UserFactory(), cheat.partner if day % 2 else "basic"]
        result = finished_match(seats, at=start + timedelta(days=day), seed=day + 5)
        rating_apply_result(result_id=result.pk)
    ratings = _ratings()
    flag_review(flag_id=cheat.pk, user=mod, status="cheating")
    voiding = flag_void(flag_id=cheat.pk, user=mod, since=start - timedelta(hours=1))
    assert len(voiding.results) == days

    flag_unmark(flag_id=cheat.pk, user=mod)

    assert _ratings() == ratings
    voiding.refresh_from_db()
    assert voiding.undone_at is not None
