"""Reads of the ratings app: leaderboards, a player's rank, rating history and stats.

The leaderboard of a pool is the ``Rating`` rows of that table size ordered by rating
(ties by id), filtered by the switches; the index ``ratings_board_idx`` (players, rating
desc, id) with the filter columns included answers both the page and "my rank" (a count
of the rows above a rating) from one range scan.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet, Sum
from django.utils import timezone

from accounts.types import User, Visitor, person
from ratings.models import WON, Competitor, DuplicateRound, Rating, RatingChange

ACTIVE_DAYS = 30
PERIODS = ("all", "active")


@dataclass(frozen=True, slots=True)
class Board:
    """The switches of a leaderboard."""

    players: int = 3
    period: str = "all"  # "all" or "active" (played in the last 30 days)
    provisional: bool = False  # show provisional players too
    bots: bool = True  # show the bots
    search: str = ""

    def __post_init__(self) -> None:
        if self.players not in (2, 3, 4):
            raise ValueError("players must be 2, 3 or 4")
        if self.period not in PERIODS:
            raise ValueError(f"period must be one of {', '.join(PERIODS)}")


@dataclass(frozen=True, slots=True)
class Row:
    rank: int
    rating_id: int
    competitor_id: int
    name: str
    username: str | None
    is_bot: bool
    rating: float
    games: int
    wins: int
    provisional: bool
    last_played: datetime | None


def _board(board: Board, now: datetime | None = None) -> QuerySet[Rating]:
    qs = Rating.objects.filter(players=board.players)
    if not board.provisional:
        qs = qs.filter(provisional=False)
    if not board.bots:
        qs = qs.filter(is_bot=False)
    if board.period == "active":
        qs = qs.filter(last_played__gte=(now or timezone.now()) - timedelta(days=ACTIVE_DAYS))
    else:
        qs = qs.filter(last_played__isnull=False)  # has played; in the index, unlike games
    return qs


def _rank_of(board: Board, rating: float, rating_id: int, now: datetime | None = None) -> int:
    """1 + the rows ahead on the board (a higher rating, or the same and a lower id): one
    range scan of the board index from the top down to this rating."""
    ahead = (
        _board(board, now)
        .filter(rating__gte=rating)
        .aggregate(
            above=Count("id", filter=Q(rating__gt=rating)),
            level=Count("id", filter=Q(rating=rating, id__lt=rating_id)),
        )
    )
    return int(ahead["above"]) + int(ahead["level"]) + 1


def _row(r: Rating, rank: int) -> Row:
    c = r.competitor
    user = c.user
    return Row(
        rank=rank,
        rating_id=r.pk,
        competitor_id=c.pk,
        name=c.name,
        username=user.username if user is not None else None,
        is_bot=c.is_bot,
        rating=r.rating,
        games=r.games,
        wins=r.wins,
        provisional=r.provisional,
        last_played=r.last_played,
    )


def _searched(board: Board, now: datetime | None) -> QuerySet[Rating]:
    qs = _board(board, now)
    if board.search:
        term = board.search.strip()
        # The names first (one pass over the users), then their rows of the board.
        named = Competitor.objects.filter(
            Q(user__username__icontains=term)
            | Q(user__display_name__icontains=term)
            | Q(bot_level__icontains=term)
        ).values("id")
        qs = qs.filter(competitor_id__in=named)
    return qs


def leaderboard_size(*, board: Board, now: datetime | None = None) -> int:
    return _searched(board, now).count()


def leaderboard(
    *, board: Board, offset: int = 0, limit: int = 50, now: datetime | None = None
) -> list[Row]:
    """One page of the leaderboard. With a search, the rows whose name matches, each
    with its rank on the whole board."""
    # The page's ids from the board index alone (an index-only scan, even deep down the
    # board), then only those rows with their names.
    ids = list(
        _searched(board, now)
        .order_by("-rating", "id")
        .values_list("id", flat=True)[offset : offset + limit]
    )
    found = Rating.objects.select_related("competitor__user").in_bulk(ids)
    page = [found[i] for i in ids]
    if board.search:
        return [_row(r, _rank_of(board, r.rating, r.pk, now)) for r in page]
    return [_row(r, offset + i + 1) for i, r in enumerate(page)]


def competitor_of(user: User) -> Competitor | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return Competitor.objects.filter(user=user).first()


def player_rank(*, user: Visitor | None, board: Board, now: datetime | None = None) -> Row | None:
    """The user's row on the board (``None`` when he is not on it: no rated match in the
    pool, provisional with provisional players hidden, or inactive; or not signed in)."""
    who = person(user)
    if who is None:
        return None
    competitor = competitor_of(who)
    if competitor is None:
        return None
    mine = (
        _board(board, now).select_related("competitor__user").filter(competitor=competitor).first()
    )
    if mine is None:
        return None
    return _row(mine, _rank_of(board, mine.rating, mine.pk, now))


def page_of_rank(rank: int, per_page: int) -> int:
    return (rank - 1) // per_page + 1


def player_ratings(*, user: User) -> list[Rating]:
    """The user's current rating in every pool he has played."""
    competitor = competitor_of(user)
    if competitor is None:
        return []
    return list(Rating.objects.filter(competitor=competitor, games__gt=0).order_by("players"))


def player_rating_history(
    *, user: User, players: int | None = None, limit: int | None = None
) -> list[RatingChange]:
    """The user's rating changes, oldest first (the last ``limit`` when given)."""
    competitor = competitor_of(user)
    if competitor is None:
        return []
    qs = RatingChange.objects.filter(competitor=competitor).annotate(table_id=F("result__table_id"))
    if players is not None:
        qs = qs.filter(players=players)
    if limit is not None:
        return list(reversed(qs.order_by("-played_at", "-result_id")[:limit]))
    return list(qs.order_by("played_at", "result_id"))


def player_recent_matches(*, user: User, limit: int = 10) -> list[RatingChange]:
    competitor = competitor_of(user)
    if competitor is None:
        return []
    return list(
        RatingChange.objects.filter(competitor=competitor)
        .annotate(
            table_id=F("result__table_id"),
            # A duplicate round's change: rated by comparing boards, not by the place.
            boards_compared=Exists(
                DuplicateRound.results.through.objects.filter(matchresult_id=OuterRef("result_id"))
            ),
        )
        .order_by("-played_at", "-result_id")[:limit]
    )


@dataclass(frozen=True, slots=True)
class Stats:
    matches: int = 0
    wins: int = 0
    contracts_made: int = 0
    contracts_failed: int = 0
    deals: int = 0
    points: int = 0
    bolts: int = 0
    barrels: int = 0
    barrels_won: int = 0
    duplicate_rounds: int = 0  # of the matches: rated by comparing boards, never a win

    @property
    def points_per_deal(self) -> float | None:
        return self.points / self.deals if self.deals else None

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.matches if self.matches else None


def player_stats(*, user: User, players: int | None = None) -> Stats:
    """Totals over the user's rated matches (all table sizes unless ``players``)."""
    competitor = competitor_of(user)
    if competitor is None:
        return Stats()
    qs = RatingChange.objects.filter(competitor=competitor)
    if players is not None:
        qs = qs.filter(players=players)
    agg = qs.aggregate(
        matches=Count("id"),
        wins=Count("id", filter=WON),
        contracts_made=Sum("contracts_made", default=0),
        contracts_failed=Sum("contracts_failed", default=0),
        deals=Sum("deals", default=0),
        points=Sum("points", default=0),
        bolts=Sum("bolts", default=0),
        barrels=Sum("barrels", default=0),
        barrels_won=Count("id", filter=Q(barrel_won=True)),
        duplicate_rounds=Count("id", filter=Q(result__duplicate_rounds__isnull=False)),
    )
    return Stats(**{k: int(v or 0) for k, v in agg.items()})


def user_by_username(username: str) -> User | None:
    return User.objects.filter(username__iexact=username).first()


__all__ = [
    "ACTIVE_DAYS",
    "Board",
    "Row",
    "Stats",
    "leaderboard",
    "leaderboard_size",
    "page_of_rank",
    "player_rank",
    "player_rating_history",
    "player_ratings",
    "player_recent_matches",
    "player_stats",
]
