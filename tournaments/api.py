"""REST API of the tournaments (in the OpenAPI schema). Thin: call a selector or a
service, answer. Errors have the live tables' shape:
``{"error": {"code": "...", "message": "..."}}``.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api_errors import ErrorSerializer
from tournaments import errors, selectors, services
from tournaments.models import Registration, Tournament
from tournaments.selectors import duplicate as duplicate_selectors

ERRORS = {
    401: OpenApiResponse(ErrorSerializer, description="not signed in"),
    403: OpenApiResponse(ErrorSerializer, description="not eligible"),
    404: OpenApiResponse(ErrorSerializer, description="no such tournament"),
    409: OpenApiResponse(ErrorSerializer, description="not possible at this stage"),
}


AMENDED = (
    "the organiser's reason when he amended this table's places (the places given are the "
    "amended ones); null: the places as played"
)


NO_PLACEMENT_POINTS = (
    "placement points; null: not placed yet, a bot, or a duplicate event (it goes by "
    "boards: its matchpoints are in the standings' game_score)"
)
CLOSED = (
    "a duplicate round's table before the round is over: its boards are still being "
    "played at the other tables, so url is null but for its own players, and replay_url "
    "null for everyone, until the round is over"
)


class TournamentSerializer(serializers.ModelSerializer[Tournament]):
    entrants = serializers.IntegerField(read_only=True)
    ends_at = serializers.DateTimeField(read_only=True, allow_null=True)
    url = serializers.SerializerMethodField()

    class Meta:
        model = Tournament
        fields: tuple[str, ...] = (
            "id", "name", "description", "format", "status", "paused", "players_per_table",
            "preset", "options", "match_target", "rated", "move_seconds", "round_minutes",
            "rounds", "duration_minutes", "advance", "registration_opens_at",
            "registration_closes_at", "starts_at", "check_in_minutes", "max_players",
            "min_rating", "min_rated_matches", "bot_level", "placement_points", "started_at",
            "finished_at", "ends_at", "entrants", "url",
        )  # fmt: skip
        read_only_fields: tuple[str, ...] = fields

    def get_url(self, tournament: Tournament) -> str:
        from django.urls import reverse

        return reverse("tournaments:detail", args=[tournament.pk])


class TournamentMeSerializer(serializers.Serializer[Any]):
    status = serializers.CharField(allow_null=True, help_text="your registration's status")
    can_register = serializers.BooleanField()
    can_withdraw = serializers.BooleanField()
    can_check_in = serializers.BooleanField()


class TournamentDetailSerializer(TournamentSerializer):
    rules = serializers.ListField(child=serializers.CharField(), read_only=True)
    me = TournamentMeSerializer(read_only=True)

    class Meta(TournamentSerializer.Meta):
        fields = (*TournamentSerializer.Meta.fields, "rules", "me")
        read_only_fields = fields


class TournamentEntrantSerializer(serializers.ModelSerializer[Registration]):
    user_id = serializers.IntegerField()
    name = serializers.CharField(source="user.get_display_name")

    class Meta:
        model = Registration
        fields = (
            "user_id", "name", "status", "seed", "rating", "registered_at", "checked_in_at",
        )  # fmt: skip
        read_only_fields = fields


class TournamentStandingSerializer(serializers.Serializer[Any]):
    position = serializers.IntegerField()
    rank = serializers.IntegerField(
        allow_null=True, help_text="shared when tied; null: disqualified"
    )
    user_id = serializers.IntegerField()
    name = serializers.CharField(source="user.get_display_name")
    points = serializers.IntegerField()
    matches = serializers.IntegerField()
    wins = serializers.IntegerField()
    opponents_points = serializers.IntegerField()
    game_score = serializers.IntegerField()
    head_to_head = serializers.IntegerField()
    stage = serializers.IntegerField(help_text="knockout: the last round played")
    disqualified = serializers.BooleanField()
    reason = serializers.CharField(help_text="why disqualified (the organiser's words)")


class TableResultSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    table_id = serializers.IntegerField(allow_null=True)
    status = serializers.CharField()
    finished_by = serializers.CharField(
        help_text="won, deals, time, resigned, abandoned; empty: playing"
    )
    seat = serializers.IntegerField()
    player = serializers.CharField()
    place = serializers.IntegerField(allow_null=True)
    score = serializers.IntegerField(allow_null=True)
    points = serializers.IntegerField(allow_null=True, help_text=NO_PLACEMENT_POINTS)
    replay_url = serializers.CharField()
    amended = serializers.CharField(allow_null=True, help_text=AMENDED)


class RoundSeatSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    name = serializers.CharField()
    user_id = serializers.IntegerField(allow_null=True, help_text="null: a bot")
    place = serializers.IntegerField(allow_null=True)
    points = serializers.IntegerField(allow_null=True, help_text=NO_PLACEMENT_POINTS)
    score = serializers.IntegerField(allow_null=True)


class RoundTableSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    status = serializers.CharField()
    table_id = serializers.IntegerField(allow_null=True, help_text="the live table, once open")
    url = serializers.CharField(allow_null=True)
    replay_url = serializers.CharField(allow_null=True)
    stopped_early = serializers.BooleanField(help_text="ranked by scores at the time limit")
    amended = serializers.CharField(allow_null=True, help_text=AMENDED)
    closed = serializers.BooleanField(help_text=CLOSED)
    seats = RoundSeatSerializer(many=True)


class TournamentRoundSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    status = serializers.CharField()
    starts_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField(allow_null=True)
    tables = RoundTableSerializer(many=True)


class PlannedSeatSerializer(serializers.Serializer[Any]):
    user_id = serializers.IntegerField(allow_null=True, help_text="null: a bot")
    name = serializers.CharField()


class PlannedTableSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    seats = PlannedSeatSerializer(many=True, help_text="by position, the first dealer first")


class PlannedRoundSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    tables = PlannedTableSerializer(many=True)


class TournamentRegistrationSerializer(serializers.ModelSerializer[Registration]):
    class Meta:
        model = Registration
        fields = ("tournament", "status", "rating", "registered_at", "checked_in_at")
        read_only_fields = fields


class _Base(APIView):
    def tournament(self, request: Request, tournament_id: int) -> Tournament:
        tournament = selectors.tournament_get(tournament_id=tournament_id, user=request.user)
        if tournament is None:
            raise errors.NotFound()
        return tournament


class TournamentListView(_Base):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "status",
                str,
                enum=["upcoming", "running", "finished", "cancelled"],
                description="only this list",
            )
        ],
        responses={200: TournamentSerializer(many=True)},
        summary="Tournaments: upcoming (soonest first), running, finished, cancelled",
    )
    def get(self, request: Request) -> Response:
        lists = selectors.tournament_lists()
        wanted = request.query_params.get("status")
        if wanted:
            if wanted not in lists:
                raise exceptions.ValidationError({"status": "unknown list"})
            items = lists[wanted]
        else:
            items = [
                tournament
                for key in ("running", "upcoming", "finished")
                for tournament in lists[key]
            ]
        return Response(TournamentSerializer(items, many=True).data)


class TournamentDetailView(_Base):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        responses={200: TournamentDetailSerializer, 404: ERRORS[404]}, summary="A tournament"
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = self.tournament(request, tournament_id)
        me = selectors.user_state(tournament, request.user)
        tournament.rules = selectors.rules_in_words(tournament)  # type: ignore[attr-defined]
        tournament.me = {  # type: ignore[attr-defined]
            "status": me.registration.status if me.registration else None,
            "can_register": me.can_register,
            "can_withdraw": me.can_withdraw,
            "can_check_in": me.can_check_in,
        }
        return Response(TournamentDetailSerializer(tournament).data)


class EntrantsView(_Base):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        responses={200: TournamentEntrantSerializer(many=True), 404: ERRORS[404]},
        summary="Entrants",
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = self.tournament(request, tournament_id)
        return Response(TournamentEntrantSerializer(selectors.entrants(tournament), many=True).data)


class StandingsView(_Base):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        responses={200: TournamentStandingSerializer(many=True), 404: ERRORS[404]},
        summary="Standings",
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = self.tournament(request, tournament_id)
        return Response(
            TournamentStandingSerializer(selectors.standings(tournament=tournament), many=True).data
        )


class RoundsView(_Base):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        responses={200: TournamentRoundSerializer(many=True), 404: ERRORS[404]},
        summary="Rounds with their tables (newest first)",
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = self.tournament(request, tournament_id)
        rounds = selectors.rounds(tournament=tournament, user=request.user)
        return Response(TournamentRoundSerializer(rounds, many=True).data)


class RoundsAheadView(_Base):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        responses={200: PlannedRoundSerializer(many=True), 404: ERRORS[404]},
        summary="A round-robin duplicate event's rounds still to be seated, as planned",
        description=(
            "Every round still to be seated with its tables, as the movement will seat them "
            "if nobody leaves or joins; empty for other events, before round 1 is seated "
            "and once the last round is."
        ),
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = self.tournament(request, tournament_id)
        ahead = duplicate_selectors.movement_ahead(tournament)
        return Response(PlannedRoundSerializer(ahead, many=True).data)


class ResultsView(_Base):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        responses={200: TableResultSerializer(many=True), 404: ERRORS[404]},
        summary="Every seat of every table with its result (as the CSV export)",
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = self.tournament(request, tournament_id)
        return Response(
            TableResultSerializer(selectors.result_rows(tournament=tournament), many=True).data
        )


class _Action(_Base):
    permission_classes = [permissions.IsAuthenticated]
    service: Any = None

    def post(self, request: Request, tournament_id: int) -> Response:
        self.tournament(request, tournament_id)
        reg = type(self).service(tournament=tournament_id, user=request.user)
        return Response(TournamentRegistrationSerializer(reg).data)


ACTION_RESPONSES: dict[int, Any] = {200: TournamentRegistrationSerializer, **ERRORS}


class RegisterView(_Action):
    service = services.registration_create

    @extend_schema(
        request=None,
        responses=ACTION_RESPONSES,
        summary="Register (checks the window, conditions, room)",
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        return super().post(request, tournament_id)


class WithdrawView(_Action):
    service = services.registration_withdraw

    @extend_schema(
        request=None, responses=ACTION_RESPONSES, summary="Withdraw (before or during the event)"
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        return super().post(request, tournament_id)


class CheckInView(_Action):
    service = services.registration_check_in

    @extend_schema(
        request=None, responses=ACTION_RESPONSES, summary="Check in (during the check-in window)"
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        return super().post(request, tournament_id)
