"""A duplicate round rated by board comparison (docs/ratings.md, "Duplicate events"): a
hand-worked round, exactly once, bots never moved, corrections and recomputes."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Table
from ratings.models import Competitor, DuplicateRound, Rating, RatingChange
from ratings.services import (
    duplicate_round_record,
    rating_apply_duplicate_round,
    rating_apply_result,
    ratings_recompute,
    result_correct,
)
from tests.factories import UserFactory
from tests.ratings.helpers import finished_match

pytestmark = pytest.mark.django_db


def duplicate_table(seats, *, at, seed):
    """A finished rated table of a duplicate round (it deals from the round's sequence)."""
    result = finished_match(seats, at=at, seed=seed)
    Table.objects.filter(pk=result.table_id).update(dealing_source={"round_commitment": "r1"})
    result.table.refresh_from_db()
    return result


@pytest.fixture
def round_of_two():
    """Two tables of a round of two boards: A, B, C at the first; D, E and a basic bot at
    the second. Everyone is new (1500, K 80). Board by board, by position (seat):

        board 1:  A 120 v D −120 · B 40 v E 40 · C 30 v bot 80
        board 2:  A 0 v D 10     · B 60 v E 20 · C 5 v bot 5
    """
    now = timezone.now()
    a, b, c, d, e = (UserFactory() for _ in range(5))
    one = duplicate_table([a, b, c], at=now - timedelta(minutes=5), seed=1)
    two = duplicate_table([d, e, "basic"], at=now, seed=2)
    groups = [
        [(one.pk, 0, 120), (two.pk, 0, -120)],
        [(one.pk, 1, 40), (two.pk, 1, 40)],
        [(one.pk, 2, 30), (two.pk, 2, 80)],
        [(one.pk, 0, 0), (two.pk, 0, 10)],
        [(one.pk, 1, 60), (two.pk, 1, 20)],
        [(one.pk, 2, 5), (two.pk, 2, 5)],
    ]
    dup = duplicate_round_record(key="r1", players=3, result_ids=[one.pk, two.pk], groups=groups)
    assert dup is not None
    return dup, (one, two), (a, b, c, d, e)


def deltas(users):
    changes = {
        c.competitor.user_id: c.delta for c in RatingChange.objects.select_related("competitor")
    }
    return [changes.get(u.pk) for u in users]


def test_a_rated_round_moves_each_player_by_his_board_comparison(round_of_two) -> None:
    dup, _, users = round_of_two
    assert rating_apply_duplicate_round(round_id=dup.pk).status == "applied"
    # Each player has two pairs (one a board), every expectation ½ (equal ratings),
    # K 80 and the round's weight 2, so Δ = 2 · 80 · Σ(S − ½) / 2. A beat D, then lost
    # to him: 80 · (½ − ½) = 0; B tied E, then beat him: 80 · (0 + ½) = +40; C lost to
    # the bot, then tied it: −40; D is A's mirror, E is B's.
    assert deltas(users) == pytest.approx([0.0, 40.0, -40.0, 0.0, -40.0])
    ratings = {r.competitor.user_id: r for r in Rating.objects.select_related("competitor")}
    assert ratings[users[1].pk].rating == pytest.approx(1540.0)
    assert all(ratings[u.pk].games == 1 for u in users)


def test_each_change_is_filed_under_the_players_own_table_at_the_rounds_end(round_of_two) -> None:
    dup, (one, two), (a, _b, _c, d, _e) = round_of_two
    rating_apply_duplicate_round(round_id=dup.pk)
    mine = RatingChange.objects.get(competitor__user=a)
    theirs = RatingChange.objects.get(competitor__user=d)
    assert (mine.result_id, theirs.result_id) == (one.pk, two.pk)
    assert mine.played_at == theirs.played_at == two.finished_at


def test_bots_are_compared_but_never_rated(round_of_two) -> None:
    dup, _, _ = round_of_two
    rating_apply_duplicate_round(round_id=dup.pk)
    bot = Competitor.objects.filter(bot_level="basic").first()
    assert not RatingChange.objects.filter(competitor=bot).exists()
    assert not Rating.objects.filter(competitor=bot).exists()
    assert RatingChange.objects.count() == 5


def test_rating_a_round_twice_changes_nothing_the_second_time(round_of_two) -> None:
    dup, (one, two), _ = round_of_two
    rating_apply_duplicate_round(round_id=dup.pk)
    before = list(Rating.objects.values_list("pk", "rating", "games").order_by("pk"))
    assert rating_apply_duplicate_round(round_id=dup.pk).status == "already"
    assert rating_apply_result(result_id=one.pk).status == "already"
    again = duplicate_round_record(key="r1", players=3, result_ids=[one.pk, two.pk], groups=[])
    assert again == dup and again.groups == dup.groups
    assert list(Rating.objects.values_list("pk", "rating", "games").order_by("pk")) == before
    assert RatingChange.objects.count() == 5


def test_a_table_of_a_round_not_yet_over_waits_for_its_round() -> None:
    result = duplicate_table([UserFactory(), UserFactory(), UserFactory()], at=None, seed=1)
    assert rating_apply_result(result_id=result.pk).status == "waiting"
    assert not RatingChange.objects.exists()


def test_the_result_of_a_table_of_a_recorded_round_rates_the_round(round_of_two) -> None:
    _, (one, _two), users = round_of_two
    assert rating_apply_result(result_id=one.pk).status == "applied"
    assert deltas(users) == pytest.approx([0.0, 40.0, -40.0, 0.0, -40.0])


def test_an_annulled_table_leaves_the_round_and_the_rest_is_rated_without_it(
    round_of_two,
) -> None:
    dup, (_one, two), users = round_of_two
    rating_apply_duplicate_round(round_id=dup.pk)
    result_correct(result=two, annulled=True)
    # Nobody at the first table is compared with anyone any more: no change is left.
    assert deltas(users) == [None] * 5
    assert all(r.rating == 1500.0 and r.games == 0 for r in Rating.objects.all())
    result_correct(result=two, annulled=False)
    assert deltas(users) == pytest.approx([0.0, 40.0, -40.0, 0.0, -40.0])


def test_amended_places_keep_the_board_comparison(round_of_two) -> None:
    dup, (one, _two), users = round_of_two
    rating_apply_duplicate_round(round_id=dup.pk)
    result_correct(result=one, placements=[3, 2, 1])
    assert deltas(users) == pytest.approx([0.0, 40.0, -40.0, 0.0, -40.0])
    assert RatingChange.objects.get(competitor__user=users[0]).place == 3


def test_a_recompute_gives_what_processing_gave(round_of_two) -> None:
    dup, _, users = round_of_two
    later = finished_match(list(users[:3]), at=timezone.now() + timedelta(minutes=30), seed=3)
    rating_apply_duplicate_round(round_id=dup.pk)
    rating_apply_result(result_id=later.pk)
    before = sorted(Rating.objects.values_list("competitor_id", "rating", "games"))
    report = ratings_recompute()
    assert report.results == 3
    assert sorted(Rating.objects.values_list("competitor_id", "rating", "games")) == before


def test_a_round_recorded_after_a_later_result_is_rated_in_time_order(round_of_two) -> None:
    dup, _, users = round_of_two
    later = finished_match(list(users[:3]), at=timezone.now() + timedelta(minutes=30), seed=3)
    rating_apply_result(result_id=later.pk)  # before the round, though it finished after it
    assert rating_apply_duplicate_round(round_id=dup.pk).status == "recomputed"
    in_order = sorted(Rating.objects.values_list("competitor_id", "rating", "games"))
    ratings_recompute()
    assert sorted(Rating.objects.values_list("competitor_id", "rating", "games")) == in_order
    assert DuplicateRound.objects.count() == 1
