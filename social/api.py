"""REST API of the social app (in the OpenAPI schema, tag ``social``). Thin: validate the
input's shape, call a service or a selector, answer; errors in the one shape
``{"error": {"code": …, "message": …}}`` (docs/protocol.md)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import UserRateThrottle
from rest_framework.views import APIView

from accounts.limits import client_address
from accounts.types import signed_in
from core.api_errors import ErrorSerializer
from games.api import TableCreateSerializer
from games.bots import LEVELS
from social import errors, selectors, services
from social.models import Challenge, SocialSettings

ERRORS = {
    400: OpenApiResponse(ErrorSerializer, description="malformed input"),
    401: OpenApiResponse(ErrorSerializer, description="not signed in"),
    403: OpenApiResponse(ErrorSerializer, description="not allowed (blocked, muted)"),
    404: OpenApiResponse(ErrorSerializer, description="no such player"),
    429: OpenApiResponse(ErrorSerializer, description="too many requests"),
}


class SocialThrottle(UserRateThrottle):
    """The social app's writes per person (``SOCIAL_WRITE_RATE``, in the shared cache: across
    processes)."""

    scope = "social"

    def get_rate(self) -> str:
        return str(settings.SOCIAL_WRITE_RATE)


class SocialAPIView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    def get_throttles(self) -> list[Any]:
        return [SocialThrottle()] if self.request.method != "GET" else []


class PlayerSerializer(serializers.Serializer[Any]):
    username = serializers.CharField(max_length=150)


class FriendSerializer(serializers.Serializer[Any]):
    user_id = serializers.IntegerField()
    username = serializers.CharField()
    name = serializers.CharField()
    online = serializers.BooleanField()
    table_id = serializers.IntegerField(
        allow_null=True, help_text="The table whose page he has open, if the reader may watch it."
    )
    playing = serializers.BooleanField(help_text="Seated at that table.")
    follows_you = serializers.BooleanField()
    private_table = serializers.BooleanField(
        help_text="At a table the reader may not watch (table_id is then null)."
    )


class PersonSerializer(serializers.Serializer[Any]):
    user_id = serializers.IntegerField(source="pk")
    username = serializers.CharField()
    name = serializers.CharField(source="get_display_name")


class FriendsView(SocialAPIView):
    @extend_schema(
        summary="The people you follow, with who is online and at which table",
        responses={200: FriendSerializer(many=True), **ERRORS},
    )
    def get(self, request: Request) -> Response:
        rows = selectors.friends(user=signed_in(request.user))
        return Response(FriendSerializer(rows, many=True).data)


class PlayersSearchView(SocialAPIView):
    @extend_schema(
        summary="Find players by part of a user name or display name (to follow them)",
        parameters=[
            OpenApiParameter(
                "q", str, description="At least two characters of a user name or display name."
            )
        ],
        responses={200: PersonSerializer(many=True), **ERRORS},
    )
    def get(self, request: Request) -> Response:
        rows = selectors.players_search(
            user=signed_in(request.user), query=request.query_params.get("q", "")
        )
        return Response(PersonSerializer(rows, many=True).data)


class EntrantsOnlineSerializer(serializers.Serializer[Any]):
    online = serializers.ListField(child=serializers.IntegerField())


class EntrantsOnlineView(SocialAPIView):
    """Public, as the tournament page's dots are: read again by the page every few seconds."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="A tournament's entrants online now (their user ids)",
        responses={
            200: EntrantsOnlineSerializer,
            404: OpenApiResponse(ErrorSerializer, description="no such tournament"),
        },
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        online = selectors.entrants_online(tournament_id=tournament_id, viewer=request.user)
        return Response({"online": online})


class RelationCreateView(SocialAPIView):
    """``POST {username}``: make the relation (follow, block, mute)."""

    change: Any = None

    @extend_schema(request=PlayerSerializer, responses={201: PersonSerializer, **ERRORS})
    def post(self, request: Request) -> Response:
        serializer = PlayerSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        target = services.player_get(username=serializer.validated_data["username"])
        type(self).change(user=signed_in(request.user), target=target)
        return Response(PersonSerializer(target).data, status=status.HTTP_201_CREATED)


class RelationDeleteView(SocialAPIView):
    """``DELETE <username>``: undo it."""

    change: Any = None

    @extend_schema(request=None, responses={204: None, **ERRORS})
    def delete(self, request: Request, username: str) -> Response:
        target = services.player_get(username=username)
        type(self).change(user=signed_in(request.user), target=target)
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema_view(post=extend_schema(summary="Follow a player"))
class FollowCreateView(RelationCreateView):
    change = services.follow_create


@extend_schema_view(delete=extend_schema(summary="No longer follow a player"))
class FollowDeleteView(RelationDeleteView):
    change = services.follow_delete


@extend_schema_view(post=extend_schema(summary="Block a player"))
class BlocksView(RelationCreateView):
    change = services.block_create

    @extend_schema(
        summary="The players you block", responses={200: PersonSerializer(many=True), **ERRORS}
    )
    def get(self, request: Request) -> Response:
        return Response(
            PersonSerializer(selectors.blocked(user=signed_in(request.user)), many=True).data
        )


@extend_schema_view(delete=extend_schema(summary="Unblock a player"))
class BlockDeleteView(RelationDeleteView):
    change = services.block_delete


@extend_schema_view(post=extend_schema(summary="Mute a player's chat, for you"))
class MuteCreateView(RelationCreateView):
    change = services.mute_create


@extend_schema_view(delete=extend_schema(summary="Unmute a player"))
class MuteDeleteView(RelationDeleteView):
    change = services.mute_delete


class ChallengeSerializer(serializers.Serializer[Any]):
    """A challenge as ``social.selectors.challenge_payload`` gives it."""

    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Challenge.Status.choices)
    players = serializers.IntegerField()
    preset = serializers.CharField()
    move_seconds = serializers.IntegerField()
    rated = serializers.BooleanField()
    expires_at = serializers.DateTimeField()
    table_id = serializers.IntegerField(
        allow_null=True, help_text="The private table, once everybody accepted."
    )
    invited = serializers.ListField(child=serializers.DictField())


class ChallengeCreateSerializer(TableCreateSerializer):
    """The lobby's table (players, rules, options, clock, rated; always private) with
    the people invited and the bots' level."""

    private = None  # type: ignore[assignment]
    invited = serializers.ListField(
        child=serializers.CharField(max_length=150),
        min_length=1,
        max_length=2,
        help_text="The user names of one or two people.",
    )
    bot_level = serializers.ChoiceField(choices=list(LEVELS), default="basic")


class ChallengesView(SocialAPIView):
    @extend_schema(
        summary="Your open challenges, sent and received",
        responses={200: ChallengeSerializer(many=True), **ERRORS},
    )
    def get(self, request: Request) -> Response:
        return Response(selectors.challenges_open_for(user=signed_in(request.user)))

    @extend_schema(
        summary="Challenge one or two people (bots take the other seats)",
        request=ChallengeCreateSerializer,
        responses={201: ChallengeSerializer, **ERRORS},
    )
    def post(self, request: Request) -> Response:
        serializer = ChallengeCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        challenge = services.challenge_create(
            user=signed_in(request.user),
            invited=[services.player_get(username=name) for name in data["invited"]],
            players=int(data["players"]),
            preset=data["preset"],
            options=data.get("options"),
            move_seconds=data["move_seconds"],
            rated=data["rated"],
            bot_level=data["bot_level"],
            address=client_address(request),
        )
        return Response(selectors.challenge_payload(challenge), status=status.HTTP_201_CREATED)


class ChallengeAnswerView(SocialAPIView):
    """``accept``, ``decline`` (the invited) or ``cancel`` (the challenger)."""

    @extend_schema(
        operation_id="social_challenges_answer",
        summary="Accept, decline or cancel a challenge",
        parameters=[
            OpenApiParameter(
                "answer", str, OpenApiParameter.PATH, enum=["accept", "decline", "cancel"]
            )
        ],
        request=None,
        responses={200: ChallengeSerializer, **ERRORS},
    )
    def post(self, request: Request, challenge_id: int, answer: str) -> Response:
        user = signed_in(request.user)
        if answer not in ("accept", "decline", "cancel"):
            raise errors.NotFound(_("No such challenge."))
        if answer == "cancel":
            challenge = services.challenge_cancel(user=user, challenge_id=challenge_id)
        else:
            challenge = services.challenge_answer(
                user=user, challenge_id=challenge_id, accept=answer == "accept"
            )
        return Response(selectors.challenge_payload(challenge))


class TableChatSerializer(serializers.Serializer[Any]):
    off = serializers.BooleanField(help_text="True: nobody writes in the table's chat.")


class TableChatView(SocialAPIView):
    @extend_schema(
        summary="Turn a table's chat off or on (its creator)",
        request=TableChatSerializer,
        responses={200: TableChatSerializer, **ERRORS},
    )
    def post(self, request: Request, table_id: int) -> Response:
        serializer = TableChatSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        row = services.table_chat_switch(
            user=signed_in(request.user),
            table_id=table_id,
            off=serializer.validated_data["off"],
        )
        return Response({"off": row.chat_off})


class SocialSettingsSerializer(serializers.Serializer[Any]):
    challenges = serializers.ChoiceField(
        choices=SocialSettings.Challenges.choices,
        required=False,
        help_text="Whom you take challenges from: everybody, or only the people you follow.",
    )
    presence = serializers.ChoiceField(
        choices=SocialSettings.Presence.choices,
        required=False,
        help_text=(
            "Who may see that you are online and at which table: everybody, the people "
            "you follow, or nobody."
        ),
    )


class SocialSettingsView(SocialAPIView):
    @extend_schema(
        summary="Your social settings: whom you take challenges from, who sees you online",
        responses={200: SocialSettingsSerializer, **ERRORS},
    )
    def get(self, request: Request) -> Response:
        row = selectors.social_settings(user=signed_in(request.user))
        return Response(SocialSettingsSerializer(row).data)

    @extend_schema(
        summary="Change your social settings (the fields you send)",
        request=SocialSettingsSerializer,
        responses={200: SocialSettingsSerializer, **ERRORS},
    )
    def patch(self, request: Request) -> Response:
        serializer = SocialSettingsSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        row = services.social_settings_update(
            user=signed_in(request.user),
            challenges=serializer.validated_data.get("challenges"),
            presence=serializer.validated_data.get("presence"),
        )
        return Response(SocialSettingsSerializer(row).data)
