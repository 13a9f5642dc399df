"""REST API of the live tables (in the OpenAPI schema). Thin: validate the input's
shape, call a service or a selector, answer. Every error has one JSON shape:
``{"error": {"code": "...", "message": "..."}}`` (docs/protocol.md).
"""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpResponse
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
)
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.limits import client_address
from accounts.types import Visitor, signed_in
from core.api_errors import ErrorSerializer
from games import errors, selectors, services, table_rules
from games.bots import LEVELS
from games.engine.options import PLAYER_COUNTS, RED_THRESHOLDS, BarrelBidding, Bolts, Options
from games.models import Table

OPTION_NAMES = tuple(Options().to_dict())


def _option_schema(name: str, default: Any) -> dict[str, Any]:
    if name == "players":
        return {"type": "integer", "enum": list(PLAYER_COUNTS)}
    if name == "target":
        low, high = table_rules.TARGET_RANGE
        return {"type": "integer", "minimum": low, "maximum": high}
    if name == "deals":  # docs/spec.md §3.7: a match of N counted deals, or null
        low, high = table_rules.DEALS_RANGE
        return {"type": "integer", "nullable": True, "minimum": low, "maximum": high}
    if name == "red_threshold":
        return {"type": "integer", "nullable": True, "enum": list(RED_THRESHOLDS)}
    if isinstance(default, bool):
        return {"type": "boolean"}
    values: list[str] = (
        [member.value for member in Bolts] if name == "bolts" else [m.value for m in BarrelBidding]
    )
    return {"type": "string", "enum": values}


# Every option with its bounds (docs/rules.md "Table options"), for the schema.
OPTIONS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        name: _option_schema(name, value) for name, value in Options().to_dict().items()
    },
}


@extend_schema_field(OPTIONS_SCHEMA)
class OptionsField(serializers.DictField):
    pass


ERRORS = {
    400: OpenApiResponse(ErrorSerializer, description="malformed input"),
    401: OpenApiResponse(ErrorSerializer, description="not signed in"),
    403: OpenApiResponse(ErrorSerializer, description="not allowed"),
    404: OpenApiResponse(ErrorSerializer, description="no such table"),
    409: OpenApiResponse(ErrorSerializer, description="not possible in the table's state"),
}


class SeatSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    name = serializers.CharField()
    user_id = serializers.IntegerField(allow_null=True)
    bot = serializers.CharField(allow_null=True)
    away = serializers.BooleanField()
    resigned = serializers.BooleanField()


# drf-spectacular drops a list child's allow_null; a free seat is null (docs/protocol.md).
@extend_schema_field(
    {
        "type": "array",
        "items": {
            "type": "object",
            "nullable": True,
            "properties": {
                "number": {"type": "integer"},
                "name": {"type": "string"},
                "user_id": {"type": "integer", "nullable": True},
                "bot": {"type": "string", "nullable": True},
                "away": {"type": "boolean"},
                "resigned": {"type": "boolean"},
            },
            "required": ["number", "name", "user_id", "bot", "away", "resigned"],
        },
    }
)
class SeatsField(serializers.ListField):
    pass


class TableSerializer(serializers.Serializer[Any]):
    """A table as ``games.selectors.table_summary`` gives it."""

    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Table.Status.choices)
    players = serializers.IntegerField()
    preset = serializers.CharField()
    options = OptionsField()
    rated = serializers.BooleanField()
    private = serializers.BooleanField()
    move_seconds = serializers.IntegerField()
    created_by = serializers.IntegerField(allow_null=True)
    seats = SeatsField(
        child=SeatSerializer(allow_null=True), help_text="Every seat by number; null: a free seat."
    )
    deadline = serializers.DateTimeField(allow_null=True)
    version = serializers.IntegerField()
    invite_code = serializers.CharField(
        required=False, help_text="Only for players seated at the table."
    )
    result = serializers.DictField(allow_null=True, required=False)


class TableCreateSerializer(serializers.Serializer[Any]):
    players = serializers.ChoiceField(choices=[2, 3, 4], default=3)
    preset = serializers.ChoiceField(choices=table_rules.PRESET_NAMES, default="classic")
    options = OptionsField(
        required=False, help_text=f"Changes to the preset; any of: {', '.join(OPTION_NAMES)}."
    )
    rated = serializers.BooleanField(default=False)
    private = serializers.BooleanField(default=False)
    chat = serializers.BooleanField(
        default=True, help_text="False: the table's chat is off from the start."
    )
    move_seconds = serializers.IntegerField(
        default=30,
        min_value=table_rules.MOVE_SECONDS_RANGE[0],
        max_value=table_rules.MOVE_SECONDS_RANGE[1],
    )


class JoinSerializer(serializers.Serializer[Any]):
    invite_code = serializers.CharField(required=False, allow_blank=True)


class BotSerializer(serializers.Serializer[Any]):
    level = serializers.ChoiceField(choices=LEVELS, default="basic")
    seat = serializers.IntegerField(required=False, min_value=0, max_value=3)


class QuickSerializer(serializers.Serializer[Any]):
    level = serializers.ChoiceField(choices=LEVELS, default="basic")
    preset = serializers.ChoiceField(choices=table_rules.PRESET_NAMES, default="classic")
    move_seconds = serializers.IntegerField(
        default=60,
        min_value=table_rules.MOVE_SECONDS_RANGE[0],
        max_value=table_rules.MOVE_SECONDS_RANGE[1],
    )


def table_data(table: Table, user: Visitor) -> dict[str, Any]:
    data = selectors.table_summary(table)
    if user.is_authenticated and selectors.seat_of(table_id=table.pk, user=user) is not None:
        data["invite_code"] = table.invite_code
    result = getattr(table, "result", None) if table.status == Table.Status.FINISHED else None
    data["result"] = selectors.result_summary(result) if result is not None else None
    return data


class TableAPIView(APIView):
    """Table errors and DRF's own errors take the one error shape (core.api_errors)."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    def table(self, table_id: int) -> Table:
        return selectors.table_get(table_id=table_id)


class PageSerializer(serializers.Serializer[Any]):
    offset = serializers.IntegerField(default=0, min_value=0, max_value=100_000)
    limit = serializers.IntegerField(default=50, min_value=1, max_value=100)


class TableListView(TableAPIView):
    @extend_schema(
        summary="Open tables",
        description="Public tables waiting for players, newest first, `limit` at a time (at most 100).",
        parameters=[PageSerializer],
        responses={200: TableSerializer(many=True), 400: ERRORS[400]},
    )
    def get(self, request: Request) -> Response:
        page = PageSerializer(data=request.query_params)
        page.is_valid(raise_exception=True)
        start, limit = page.validated_data["offset"], page.validated_data["limit"]
        tables = selectors.table_list_open()[start : start + limit]
        return Response([table_data(t, request.user) for t in tables])

    @extend_schema(
        summary="Open a table",
        description="You take seat 0. A rated table plays its preset unchanged.",
        request=TableCreateSerializer,
        responses={201: TableSerializer, **ERRORS},
    )
    def post(self, request: Request) -> Response:
        serializer = TableCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        table = services.table_open(
            user=signed_in(request.user),
            players=int(data["players"]),
            preset=data["preset"],
            options=data.get("options"),
            rated=data["rated"],
            private=data["private"],
            move_seconds=data["move_seconds"],
            chat=data["chat"],
        )
        return Response(table_data(table, request.user), status=status.HTTP_201_CREATED)


class MyTablesView(TableAPIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(summary="My tables", description="Tables you sit at, running ones first.",
                   responses=TableSerializer(many=True))  # fmt: skip
    def get(self, request: Request) -> Response:
        tables = selectors.table_list_for_user(user=signed_in(request.user))[:200]
        return Response([table_data(t, request.user) for t in tables])


class TableDetailView(TableAPIView):
    @extend_schema(
        summary="A table",
        parameters=[
            OpenApiParameter("invite", str, description="The invite code of a private table.")
        ],
        responses={200: TableSerializer, 403: ERRORS[403], 404: ERRORS[404]},
    )
    def get(self, request: Request, table_id: int) -> Response:
        table = self.table(table_id)
        if not selectors.may_watch(
            table=table, user=request.user, invite_code=request.query_params.get("invite")
        ):
            raise errors.Forbidden("this table is private")
        return Response(table_data(table, request.user))


class TableJoinView(TableAPIView):
    @extend_schema(
        summary="Take a free seat",
        request=JoinSerializer,
        responses={200: TableSerializer, **ERRORS},
    )
    def post(self, request: Request, table_id: int) -> Response:
        serializer = JoinSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.table_join(
            table=table_id,
            user=signed_in(request.user),
            invite_code=serializer.validated_data.get("invite_code") or None,
        )
        return Response(table_data(self.table(table_id), request.user))


class TableLeaveView(TableAPIView):
    @extend_schema(
        summary="Leave a table before it starts",
        request=None,
        responses={200: TableSerializer, **ERRORS},
    )
    def post(self, request: Request, table_id: int) -> Response:
        services.table_leave(table=table_id, user=signed_in(request.user))
        return Response(table_data(self.table(table_id), request.user))


class TableBotView(TableAPIView):
    @extend_schema(
        summary="Seat a bot", request=BotSerializer, responses={200: TableSerializer, **ERRORS}
    )
    def post(self, request: Request, table_id: int) -> Response:
        serializer = BotSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        services.seat_fill_with_bot(
            table=table_id, level=data["level"], by=signed_in(request.user), number=data.get("seat")
        )
        return Response(table_data(self.table(table_id), request.user))


class TableStartView(TableAPIView):
    @extend_schema(
        summary="Start the match", request=None, responses={200: TableSerializer, **ERRORS}
    )
    def post(self, request: Request, table_id: int) -> Response:
        services.table_start(
            table=table_id, user=signed_in(request.user), address=client_address(request)
        )
        return Response(table_data(self.table(table_id), request.user))


class TableResignView(TableAPIView):
    @extend_schema(
        summary="Resign",
        description="A bot plays your seat to the end; you finish last.",
        request=None,
        responses={200: TableSerializer, **ERRORS},
    )
    def post(self, request: Request, table_id: int) -> Response:
        services.table_resign(table=table_id, user=signed_in(request.user))
        return Response(table_data(self.table(table_id), request.user))


class QuickPlayView(TableAPIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Play against bots now",
        description=(
            "Opens a table of three with you and two bots of the given level, and starts it. "
            "Tables with bots playing at once are capped (409 `too_many_bot_tables`): a few "
            "per player, one of them with `master` bots, and a few more per address; a "
            "finished or abandoned table frees its slot."
        ),
        request=QuickSerializer,
        responses={201: TableSerializer, **ERRORS},
    )
    def post(self, request: Request) -> Response:
        serializer = QuickSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        table = services.table_play_bots(
            user=signed_in(request.user),
            level=data["level"],
            preset=data["preset"],
            move_seconds=data["move_seconds"],
            address=client_address(request),
        )
        return Response(table_data(table, request.user), status=status.HTTP_201_CREATED)


class TableRecordView(TableAPIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="The match record",
        description=(
            "The finished match as a `thousand/1` record (JSON), every deal with its "
            "fair-dealing seeds under `dealing`. `?download=1` sends it as a file."
        ),
        parameters=[OpenApiParameter("download", bool), OpenApiParameter("invite", str)],
        responses={
            (200, "application/json"): dict,
            403: ERRORS[403],
            404: ERRORS[404],
            409: ERRORS[409],
        },
    )
    def get(self, request: Request, table_id: int) -> Any:
        table = self.table(table_id)
        if not selectors.may_watch(
            table=table, user=request.user, invite_code=request.query_params.get("invite")
        ):
            raise errors.Forbidden("this table is private")
        record = selectors.match_record_export(table_id=table_id)
        if request.query_params.get("download") in ("1", "true", "yes"):
            response = HttpResponse(json.dumps(record, indent=1), content_type="application/json")
            response["Content-Disposition"] = (
                f'attachment; filename="thousand-table-{table_id}.json"'
            )
            return response
        return Response(record)
