"""Result processing: exactly once, bots rated, corrections and recomputes."""

from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from ratings import elo
from ratings.models import Competitor, Rating, RatingChange
from ratings.services import (
    rating_apply_result,
    ratings_recompute,
    result_correct,
)
from tests.factories import UserFactory
from tests.ratings.helpers import finished_match

pytestmark = pytest.mark.django_db


def ratings_now() -> dict[tuple[int, int], tuple[float, int]]:
    return {
        (r.competitor_id, r.players): (round(r.rating, 9), r.games) for r in Rating.objects.all()
    }


def test_a_rated_result_writes_one_change_per_player() -> None:
    result = finished_match([UserFactory(), UserFactory(), UserFactory()])
    rating_apply_result(result_id=result.pk)
    assert RatingChange.objects.filter(result=result).count() == 3


def test_changes_follow_the_elo_math_for_new_players() -> None:
    result = finished_match([UserFactory(), UserFactory(), UserFactory()], places=[1, 2, 3])
    rating_apply_result(result_id=result.pk)
    got = [c.delta for c in RatingChange.objects.filter(result=result).order_by("seat")]
    want = [c.delta for c in elo.rate([elo.Standing(1500, 0, p) for p in (1, 2, 3)])]
    assert got == pytest.approx(want)


def test_processing_a_result_twice_changes_nothing_the_second_time() -> None:
    result = finished_match([UserFactory(), UserFactory(), UserFactory()])
    rating_apply_result(result_id=result.pk)
    before = ratings_now()
    second = rating_apply_result(result_id=result.pk)
    assert (second.status, ratings_now(), RatingChange.objects.count()) == ("already", before, 3)


def test_the_database_refuses_a_second_change_for_the_same_result() -> None:
    result = finished_match([UserFactory(), UserFactory()])
    rating_apply_result(result_id=result.pk)
    change = RatingChange.objects.filter(result=result).first()
    assert change is not None
    change.pk = None
    with pytest.raises(IntegrityError), transaction.atomic():
        change.save()


def test_an_unrated_match_moves_no_rating() -> None:
    result = finished_match([UserFactory(), UserFactory(), UserFactory()], rated=False)
    assert rating_apply_result(result_id=result.pk).status == "skipped"


def test_bots_are_rated_and_marked_as_bots() -> None:
    result = finished_match([UserFactory(), "basic", "strong"])
    rating_apply_result(result_id=result.pk)
    assert sorted(
        Rating.objects.filter(is_bot=True).values_list("competitor__bot_level", flat=True)
    ) == [
        "basic",
        "strong",
    ]


def test_two_seats_of_one_bot_level_make_one_competitor_with_one_change() -> None:
    result = finished_match([UserFactory(), "basic", "basic"])
    rating_apply_result(result_id=result.pk)
    assert RatingChange.objects.filter(result=result, competitor__bot_level="basic").count() == 1


def test_a_competitor_is_a_user_or_a_bot_level_never_both() -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Competitor.objects.create(user=UserFactory(), bot_level="basic")


def test_ratings_are_kept_per_table_size() -> None:
    a, b, c = UserFactory(), UserFactory(), UserFactory()
    rating_apply_result(result_id=finished_match([a, b, c]).pk)
    rating_apply_result(result_id=finished_match([a, b]).pk)
    assert sorted(Rating.objects.filter(competitor__user=a).values_list("players", flat=True)) == [
        2,
        3,
    ]


def test_a_resigned_player_finishes_last_and_loses_rating() -> None:
    a, b, c = UserFactory(), UserFactory(), UserFactory()
    result = finished_match([a, b, c], resigned=[0])
    rating_apply_result(result_id=result.pk)
    mine = RatingChange.objects.get(result=result, competitor__user=a)
    assert (mine.place, mine.delta < 0) == (3, True)


def test_profile_line_comes_from_the_replayed_record() -> None:
    result = finished_match([UserFactory(), UserFactory(), UserFactory()])
    rating_apply_result(result_id=result.pk)
    winner = RatingChange.objects.get(result=result, seat=result.winner_seat)
    assert winner.barrel_won and winner.deals > 0


def test_provisional_ends_after_the_provisional_matches() -> None:
    a, b, c = UserFactory(), UserFactory(), UserFactory()
    now = timezone.now()
    for i in range(elo.DEFAULT.provisional_games):
        rating_apply_result(result_id=finished_match([a, b, c], at=now + timedelta(minutes=i)).pk)
    assert not Rating.objects.get(competitor__user=a, players=3).provisional


def test_a_result_that_arrives_late_is_applied_in_time_order() -> None:
    a, b, c = UserFactory(), UserFactory(), UserFactory()
    now = timezone.now()
    early = finished_match([a, b, c], at=now, places=[1, 2, 3], seed=1)
    late = finished_match([a, b, c], at=now + timedelta(hours=1), places=[3, 2, 1], seed=2)
    rating_apply_result(result_id=late.pk)
    assert rating_apply_result(result_id=early.pk).status == "recomputed"
    out_of_order = ratings_now()
    ratings_recompute()
    assert ratings_now() == out_of_order


def test_recompute_after_an_annulled_result_is_as_if_it_was_never_played() -> None:
    a, b, c, d = UserFactory(), UserFactory(), UserFactory(), UserFactory()
    now = timezone.now()
    results = [
        finished_match([a, b, c], at=now, seed=1),
        finished_match([b, c, d], at=now + timedelta(minutes=1), seed=2),
        finished_match([a, c, d], at=now + timedelta(minutes=2), seed=3),
        finished_match([a, b, d], at=now + timedelta(minutes=3), seed=4),
    ]
    for r in results:
        rating_apply_result(result_id=r.pk)
    result_correct(result=results[1], annulled=True)
    annulled = ratings_now()
    results[1].table.delete()  # the world in which it was never played
    ratings_recompute()
    assert ratings_now() == annulled


def test_restoring_an_annulled_result_brings_its_changes_back() -> None:
    a, b, c = UserFactory(), UserFactory(), UserFactory()
    result = finished_match([a, b, c])
    rating_apply_result(result_id=result.pk)
    played = ratings_now()
    result_correct(result=result, annulled=True)
    result_correct(result=result, annulled=False)
    assert ratings_now() == played


def test_an_amended_result_uses_the_amended_places() -> None:
    a, b, c = UserFactory(), UserFactory(), UserFactory()
    result = finished_match([a, b, c], places=[1, 2, 3])
    rating_apply_result(result_id=result.pk)
    result_correct(result=result, placements=[3, 2, 1])
    assert RatingChange.objects.get(result=result, competitor__user=c).place == 1


def test_bad_amended_places_are_refused_and_change_nothing() -> None:
    result = finished_match([UserFactory(), UserFactory(), UserFactory()])
    rating_apply_result(result_id=result.pk)
    before = ratings_now()
    with pytest.raises(ValueError, match="place"):
        result_correct(result=result, placements=[2, 2, 4])
    assert ratings_now() == before


def test_recompute_reports_what_changed() -> None:
    a, b, c = UserFactory(), UserFactory(), UserFactory()
    result = finished_match([a, b, c])
    rating_apply_result(result_id=result.pk)
    Rating.objects.filter(competitor__user=a).update(rating=2000)  # drifted by hand
    report = ratings_recompute()
    assert list(report.moved) == [(a.competitor.pk, 3)]


def test_recompute_is_deterministic() -> None:
    users = [UserFactory() for _ in range(5)]
    now = timezone.now()
    for i in range(6):
        three = [users[(i + k) % 5] for k in range(3)]
        rating_apply_result(
            result_id=finished_match(three, at=now + timedelta(minutes=i), seed=i + 1).pk
        )
    first = ratings_now()
    ratings_recompute()
    assert ratings_now() == first
