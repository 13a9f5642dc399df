"""REST API of the analysis (in the OpenAPI schema): ask for a finished match's analysis,
read its state and result, cancel it; a player's average over his analysed matches."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.types import User, signed_in
from analysis import errors as err
from analysis import hints, selectors, services
from core.api_errors import ErrorSerializer
from games import errors as table_errors
from games import selectors as table_selectors
from games.api import ERRORS

LIMITED = OpenApiResponse(ErrorSerializer, description="the daily limit of analyses")
INVITE = OpenApiParameter("invite", str, description="The invite code of a private table.")


class AnalysisView(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    def _watchable(self, request: Request, table_id: int) -> None:
        table = table_selectors.table_get(table_id=table_id)
        if not table_selectors.may_watch(
            table=table, user=request.user, invite_code=request.query_params.get("invite")
        ):
            raise table_errors.Forbidden("this table is private")

    @extend_schema(
        summary="A match's analysis",
        description=(
            "Its state (`none`: nobody asked yet, `queued`, `running` with `done` of "
            "`total` decisions, `done`, `failed`, `cancelled`) and, once done, the result: every decision of every "
            "person's seat with the value of the action taken and of the best, the loss and "
            "its label, a hindsight line per played deal and a summary per seat "
            "(docs/analysis.md)."
        ),
        parameters=[INVITE],
        responses={200: dict, 403: ERRORS[403], 404: ERRORS[404]},
    )
    def get(self, request: Request, table_id: int) -> Response:
        self._watchable(request, table_id)
        analysis = selectors.analysis_of(table_id=table_id)
        if analysis is None:
            return Response({"table_id": table_id, "status": "none", "result": None})
        return Response(selectors.analysis_data(analysis))

    @extend_schema(
        summary="Ask for a match's analysis",
        description=(
            "A player of a finished match asks for its analysis (queued on the `analysis` "
            "workers). An analysis already done, queued or running is returned as it is. "
            "Refused while the match is played, to spectators, beyond the daily limit and "
            "while another analysis of yours runs."
        ),
        request=None,
        responses={202: dict, **ERRORS, 429: LIMITED},
    )
    def post(self, request: Request, table_id: int) -> Response:
        analysis = services.analysis_request(table_id=table_id, user=signed_in(request.user))
        return Response(selectors.analysis_data(analysis), status=status.HTTP_202_ACCEPTED)

    @extend_schema(
        summary="Cancel a match's analysis",
        description="Cancel a queued or running analysis you asked for.",
        request=None,
        responses={200: dict, **ERRORS},
    )
    def delete(self, request: Request, table_id: int) -> Response:
        analysis = services.analysis_cancel(table_id=table_id, user=signed_in(request.user))
        return Response(selectors.analysis_data(analysis))


class PlayerAnalysisView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="A player's analysed matches",
        description=(
            "His mean loss a decision over his analysed matches, overall and by stage "
            "(bidding, gives and contract, play), and the last 50 matches' for a trend."
        ),
        responses={200: dict, 404: ERRORS[404]},
    )
    def get(self, request: Request, username: str) -> Response:
        user = User.objects.filter(username__iexact=username).first()
        if user is None:
            raise err.NoSuchPlayer
        return Response(selectors.player_trend(user=user))


class HintView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="What would strong do?",
        description=(
            "At an unrated table of one person against bots, the strong bot's choice for "
            "your current decision (from your seat's view only). Refused at rated tables, "
            "tournament tables, tables with another person and to spectators; the match's "
            "record notes the hints used."
        ),
        request=None,
        responses={200: dict, **ERRORS},
    )
    def post(self, request: Request, table_id: int) -> Response:
        return Response(hints.hint_give(table_id=table_id, user=signed_in(request.user)))


class RoundAnalysisView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Ask for a round's analyses",
        description=(
            "The tournament's organiser asks for the analysis of every finished table of "
            "round `number` (outside the players' daily limits)."
        ),
        request=None,
        responses={202: dict, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int, number: int) -> Response:
        asked = services.analysis_request_round(
            tournament_id=tournament_id, number=number, user=signed_in(request.user)
        )
        return Response(
            [selectors.analysis_data(a) for a in asked], status=status.HTTP_202_ACCEPTED
        )
