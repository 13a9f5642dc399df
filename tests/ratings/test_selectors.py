"""Leaderboards, "my rank", history and stats."""

import itertools
from datetime import timedelta

import pytest
from django.utils import timezone

from ratings import elo
from ratings.models import Competitor, Rating
from ratings.selectors import (
    Board,
    leaderboard,
    leaderboard_size,
    player_rank,
    player_rating_history,
    player_stats,
)
from ratings.services import rating_apply_result
from tests.factories import UserFactory
from tests.ratings.helpers import finished_match

pytestmark = pytest.mark.django_db


def rated(
    user=None, *, bot: str = "", rating: float, games: int = 50, days_ago: int = 1, players: int = 3
) -> Rating:
    competitor = Competitor.objects.create(user=user, bot_level=bot)
    return Rating.objects.create(
        competitor=competitor,
        players=players,
        rating=rating,
        games=games,
        provisional=elo.DEFAULT.is_provisional(games),
        is_bot=bool(bot),
        last_played=timezone.now() - timedelta(days=days_ago),
    )


def names(board: Board) -> list[str]:
    return [row.name for row in leaderboard(board=board)]


def test_leaderboard_is_ordered_by_rating() -> None:
    for name, r in (("low", 1400), ("high", 1700), ("mid", 1550)):
        rated(UserFactory(display_name=name), rating=r)
    assert names(Board()) == ["high", "mid", "low"]


def test_provisional_players_are_hidden_unless_asked_for() -> None:
    rated(UserFactory(display_name="settled"), rating=1500)
    rated(UserFactory(display_name="new"), rating=1600, games=2)
    assert (names(Board()), names(Board(provisional=True))) == (["settled"], ["new", "settled"])


def test_bots_can_be_hidden() -> None:
    rated(UserFactory(display_name="human"), rating=1500)
    rated(bot="strong", rating=1800)
    assert names(Board(bots=False)) == ["human"]


def test_active_board_shows_only_the_last_30_days() -> None:
    rated(UserFactory(display_name="recent"), rating=1500, days_ago=3)
    rated(UserFactory(display_name="gone"), rating=1600, days_ago=45)
    assert names(Board(period="active")) == ["recent"]


def test_each_table_size_has_its_own_board() -> None:
    rated(UserFactory(display_name="three"), rating=1500)
    rated(UserFactory(display_name="two"), rating=1500, players=2)
    assert names(Board(players=2)) == ["two"]


def test_search_keeps_the_rank_on_the_whole_board() -> None:
    for i, r in enumerate((1700, 1600, 1500)):
        rated(UserFactory(display_name=f"p{i}", username=f"user{i}"), rating=r)
    rows = leaderboard(board=Board(search="p2"))
    assert [(row.name, row.rank) for row in rows] == [("p2", 3)]


def test_pages_continue_the_ranks() -> None:
    for r in range(1500, 1510):
        rated(UserFactory(), rating=r)
    assert [row.rank for row in leaderboard(board=Board(), offset=5, limit=3)] == [6, 7, 8]


def test_my_rank_counts_the_players_above_me() -> None:
    me = UserFactory()
    rated(me, rating=1550)
    for r in (1600, 1700, 1400):
        rated(UserFactory(), rating=r)
    row = player_rank(user=me, board=Board())
    assert row is not None and row.rank == 3


def test_my_rank_is_none_when_i_am_not_on_the_board() -> None:
    me = UserFactory()
    rated(me, rating=1550, games=1)
    assert player_rank(user=me, board=Board()) is None


def test_board_size_counts_the_rows_shown() -> None:
    rated(UserFactory(), rating=1500)
    rated(UserFactory(), rating=1500, games=1)
    assert leaderboard_size(board=Board()) == 1


def test_bad_board_switch_is_refused() -> None:
    with pytest.raises(ValueError, match="players"):
        Board(players=5)


def test_history_is_oldest_first_and_chains() -> None:
    a, b, c = UserFactory(), UserFactory(), UserFactory()
    now = timezone.now()
    for i in range(3):
        rating_apply_result(
            result_id=finished_match([a, b, c], at=now + timedelta(minutes=i), seed=i + 1).pk
        )
    history = player_rating_history(user=a)
    assert all(x.after == pytest.approx(y.before) for x, y in itertools.pairwise(history))


def test_stats_add_up_the_matches() -> None:
    a, b, c = UserFactory(), UserFactory(), UserFactory()
    now = timezone.now()
    for i in range(2):
        rating_apply_result(
            result_id=finished_match([a, b, c], at=now + timedelta(minutes=i), seed=i + 1).pk
        )
    stats = player_stats(user=a)
    assert stats.matches == 2 and stats.deals > 0 and stats.points_per_deal is not None
