"""The ratings API: leaderboards, a player's rating history and stats (read-only)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ratings import selectors

MAX_LIMIT = 200


class RowSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    name = serializers.CharField()
    username = serializers.CharField(allow_null=True)
    is_bot = serializers.BooleanField()
    rating = serializers.FloatField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    provisional = serializers.BooleanField()
    last_played = serializers.DateTimeField(allow_null=True)


class LeaderboardSerializer(serializers.Serializer[Any]):
    players = serializers.IntegerField()
    period = serializers.CharField()
    total = serializers.IntegerField()
    offset = serializers.IntegerField()
    results = RowSerializer(many=True)
    me = RowSerializer(
        allow_null=True, help_text="The signed-in player's row, if he is on this board."
    )


class ChangeSerializer(serializers.Serializer[Any]):
    result_id = serializers.IntegerField()
    table_id = serializers.IntegerField()
    players = serializers.IntegerField()
    played_at = serializers.DateTimeField()
    place = serializers.IntegerField()
    before = serializers.FloatField()
    after = serializers.FloatField()
    delta = serializers.FloatField()


class StatsSerializer(serializers.Serializer[Any]):
    matches = serializers.IntegerField()
    wins = serializers.IntegerField()
    contracts_made = serializers.IntegerField()
    contracts_failed = serializers.IntegerField()
    deals = serializers.IntegerField()
    points_per_deal = serializers.FloatField(allow_null=True)
    bolts = serializers.IntegerField()
    barrels = serializers.IntegerField()
    barrels_won = serializers.IntegerField()


class CurrentRatingSerializer(serializers.Serializer[Any]):
    players = serializers.IntegerField()
    rating = serializers.FloatField()
    games = serializers.IntegerField()
    provisional = serializers.BooleanField()


class PlayerStatsSerializer(serializers.Serializer[Any]):
    username = serializers.CharField()
    ratings = CurrentRatingSerializer(many=True)
    stats = StatsSerializer()


def _int(request: Request, name: str, default: int, low: int, high: int) -> int:
    raw = request.query_params.get(name, default)
    try:
        value = int(raw)
    except (TypeError, ValueError):
        raise ValidationError({name: f"must be an integer {low}..{high}"}) from None
    if not low <= value <= high:
        raise ValidationError({name: f"must be an integer {low}..{high}"})
    return value


def _flag(request: Request, name: str, default: bool) -> bool:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    if raw.lower() in ("1", "true", "yes", "on"):
        return True
    if raw.lower() in ("0", "false", "no", "off"):
        return False
    raise ValidationError({name: "must be true or false"})


class LeaderboardView(APIView):
    """A leaderboard page: one table size, all-time or active in the last 30 days."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "players",
                OpenApiTypes.INT,
                enum=[2, 3, 4],
                description="players at the table (default 3)",
            ),
            OpenApiParameter(
                "period", OpenApiTypes.STR, enum=["all", "active"], description="default all"
            ),
            OpenApiParameter(
                "provisional",
                OpenApiTypes.BOOL,
                description="include provisional players (default false)",
            ),
            OpenApiParameter("bots", OpenApiTypes.BOOL, description="include bots (default true)"),
            OpenApiParameter("q", OpenApiTypes.STR, description="search by name"),
            OpenApiParameter("offset", OpenApiTypes.INT),
            OpenApiParameter(
                "limit", OpenApiTypes.INT, description=f"at most {MAX_LIMIT} (default 50)"
            ),
        ],
        responses=LeaderboardSerializer,
    )
    def get(self, request: Request) -> Response:
        period = request.query_params.get("period", "all")
        if period not in selectors.PERIODS:
            raise ValidationError({"period": "must be all or active"})
        board = selectors.Board(
            players=_int(request, "players", 3, 2, 4),
            period=period,
            provisional=_flag(request, "provisional", False),
            bots=_flag(request, "bots", True),
            search=request.query_params.get("q", "")[:100],
        )
        offset = _int(request, "offset", 0, 0, 10**9)
        limit = _int(request, "limit", 50, 1, MAX_LIMIT)
        rows = selectors.leaderboard(board=board, offset=offset, limit=limit)
        plain = selectors.Board(board.players, board.period, board.provisional, board.bots)
        me = selectors.player_rank(user=request.user, board=plain)
        data = {
            "players": board.players,
            "period": board.period,
            "total": selectors.leaderboard_size(board=board),
            "offset": offset,
            "results": [asdict(r) for r in rows],
            "me": asdict(me) if me else None,
        }
        return Response(LeaderboardSerializer(data).data)


def _player(username: str) -> Any:
    user = selectors.user_by_username(username)
    if user is None:
        raise Http404("no such player")
    return user


class PlayerHistoryView(APIView):
    """A player's rating changes, oldest first."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "players", OpenApiTypes.INT, enum=[2, 3, 4], description="one table size only"
            )
        ],
        responses=ChangeSerializer(many=True),
    )
    def get(self, request: Request, username: str) -> Response:
        user = _player(username)
        players = _int(request, "players", 0, 2, 4) if "players" in request.query_params else None
        history = selectors.player_rating_history(user=user, players=players)
        data = [
            {
                "result_id": c.result_id,
                "table_id": getattr(c, "table_id", None),
                "players": c.players,
                "played_at": c.played_at,
                "place": c.place,
                "before": c.before,
                "after": c.after,
                "delta": c.delta,
            }
            for c in history
        ]
        return Response(ChangeSerializer(data, many=True).data)


class PlayerStatsView(APIView):
    """A player's current ratings and totals over his rated matches."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=PlayerStatsSerializer)
    def get(self, request: Request, username: str) -> Response:
        user = _player(username)
        stats = selectors.player_stats(user=user)
        data = {
            "username": user.username,
            "ratings": selectors.player_ratings(user=user),
            "stats": {**asdict(stats), "points_per_deal": stats.points_per_deal},
        }
        return Response(PlayerStatsSerializer(data).data)
