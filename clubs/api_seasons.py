"""The clubs' API for recurring evenings (series) and seasons: lists, skipping a date,
stopping a series, a season's table and closing it; the same throttles, errors and
rights as the rest of ``/api/v1/clubs/`` (``clubs/api.py``)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.types import signed_in
from clubs import errors, selectors, series
from clubs.api import ERRORS, ClubsAPIView, club_named
from clubs.models import (
    Season,
    Series,
)


class ClubSeriesSerializer(serializers.ModelSerializer[Series]):
    class Meta:
        model = Series
        fields = (
            "id", "name", "weekday", "start_time", "time_zone", "days_ahead",
            "registration_hours", "members_only", "tournament_fields", "skipped", "stopped_at",
        )  # fmt: skip
        read_only_fields = ("id", "skipped", "stopped_at")
        extra_kwargs = {"time_zone": {"required": False}}


class ClubSeriesSkipSerializer(serializers.Serializer[Any]):
    day = serializers.DateField()


def _series(slug: str, series_id: int) -> Series:
    found = Series.objects.select_related("club").filter(pk=series_id, club__slug=slug).first()
    if found is None:
        raise errors.NotFound()
    return found


class SeriesListView(ClubsAPIView):
    @extend_schema(
        summary="A club's recurring evenings", responses={200: ClubSeriesSerializer(many=True)}
    )
    def get(self, request: Request, slug: str) -> Response:
        rows = Series.objects.filter(club=club_named(slug)).order_by("pk")
        return Response(ClubSeriesSerializer(rows, many=True).data)

    @extend_schema(
        summary="Start a recurring evening (the events right)",
        request=ClubSeriesSerializer,
        responses={201: ClubSeriesSerializer, **ERRORS},
    )
    def post(self, request: Request, slug: str) -> Response:
        serializer = ClubSeriesSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        fields = data.pop("tournament_fields", {}) or {}
        if not isinstance(fields, dict):
            raise errors.Invalid()
        created = series.series_create(
            user=signed_in(request.user), club=club_named(slug), **data, **fields
        )
        return Response(ClubSeriesSerializer(created).data, status=status.HTTP_201_CREATED)


class SeriesSkipView(ClubsAPIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Skip one date of a recurring evening (the events right)",
        request=ClubSeriesSkipSerializer,
        responses={200: ClubSeriesSerializer, **ERRORS},
    )
    def post(self, request: Request, slug: str, series_id: int) -> Response:
        serializer = ClubSeriesSkipSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        done = series.series_skip(
            user=signed_in(request.user),
            series=_series(slug, series_id),
            day=serializer.validated_data["day"],
        )
        return Response(ClubSeriesSerializer(done).data)


class SeriesStopView(ClubsAPIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Stop a recurring evening (the events right)",
        request=None,
        responses={200: ClubSeriesSerializer, **ERRORS},
    )
    def post(self, request: Request, slug: str, series_id: int) -> Response:
        done = series.series_stop(user=signed_in(request.user), series=_series(slug, series_id))
        return Response(ClubSeriesSerializer(done).data)


class ClubSeasonSerializer(serializers.ModelSerializer[Season]):
    points = serializers.ListField(
        child=serializers.IntegerField(min_value=0), max_length=200, required=False
    )

    class Meta:
        model = Season
        fields = ("id", "name", "starts_on", "ends_on", "scheme", "points", "best", "closed_at")
        read_only_fields = ("id", "closed_at")


class SeasonsView(ClubsAPIView):
    @extend_schema(summary="A club's seasons", responses={200: ClubSeasonSerializer(many=True)})
    def get(self, request: Request, slug: str) -> Response:
        rows = Season.objects.filter(club=club_named(slug))
        return Response(ClubSeasonSerializer(rows, many=True).data)

    @extend_schema(
        summary="Start a season (the events right)",
        request=ClubSeasonSerializer,
        responses={201: ClubSeasonSerializer, **ERRORS},
    )
    def post(self, request: Request, slug: str) -> Response:
        serializer = ClubSeasonSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        made = series.season_create(
            user=signed_in(request.user), club=club_named(slug), **serializer.validated_data
        )
        return Response(ClubSeasonSerializer(made).data, status=status.HTTP_201_CREATED)


def _season(slug: str, season_id: int) -> Season:
    found = Season.objects.select_related("club").filter(pk=season_id, club__slug=slug).first()
    if found is None:
        raise errors.NotFound()
    return found


class SeasonTableView(ClubsAPIView):
    @extend_schema(
        summary="A season's table: each player's rank, total and points per event",
        responses={200: OpenApiResponse(description="events and rows"), **ERRORS},
    )
    def get(self, request: Request, slug: str, season_id: int) -> Response:
        return Response(selectors.season_rows(season=_season(slug, season_id)))


class SeasonCloseView(ClubsAPIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Close (archive) a season: its table is kept as it stands (the events right)",
        request=None,
        responses={200: ClubSeasonSerializer, **ERRORS},
    )
    def post(self, request: Request, slug: str, season_id: int) -> Response:
        done = series.season_close(user=signed_in(request.user), season=_season(slug, season_id))
        return Response(ClubSeasonSerializer(done).data)
