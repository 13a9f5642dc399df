"""REST API of the clubs app (in the OpenAPI schema, tag ``clubs``). Thin: validate the
input's shape, call a service or a selector, answer; errors in the one shape
``{"error": {"code": …, "message": …}}`` (docs/protocol.md)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import UserRateThrottle
from rest_framework.views import APIView

from accounts.types import signed_in
from clubs import errors, selectors, services
from clubs.models import (
    RIGHTS,
    Club,
    ClubMessage,
    Invitation,
    JoinRequest,
    Membership,
)
from core.api_errors import ErrorSerializer
from ratings.selectors import user_by_username

ERRORS = {
    400: OpenApiResponse(ErrorSerializer, description="malformed input"),
    401: OpenApiResponse(ErrorSerializer, description="not signed in"),
    403: OpenApiResponse(ErrorSerializer, description="not a right you hold in this club"),
    404: OpenApiResponse(ErrorSerializer, description="no such club, member or invitation"),
    409: OpenApiResponse(ErrorSerializer, description="no longer possible"),
    429: OpenApiResponse(ErrorSerializer, description="too many requests"),
}


class ClubsThrottle(UserRateThrottle):
    """The clubs app's writes per person (``CLUBS_WRITE_RATE``, in the shared cache)."""

    scope = "clubs"

    def get_rate(self) -> str:
        return str(settings.CLUBS_WRITE_RATE)


class ClubsAPIView(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    def get_throttles(self) -> list[Any]:
        return [ClubsThrottle()] if self.request.method != "GET" else []


def club_named(slug: str) -> Club:
    club = selectors.club_by_slug(slug)
    if club is None:
        raise errors.NotFound()
    return club


class ClubSerializer(serializers.ModelSerializer[Club]):
    members = serializers.IntegerField(source="n_members", read_only=True, default=None)

    class Meta:
        model = Club
        fields = (
            "name", "slug", "description", "languages", "time_zone", "access", "archived_at",
            "members",
        )  # fmt: skip
        read_only_fields = ("archived_at",)


class ClubCreateSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=80)
    slug = serializers.CharField(max_length=40)
    description = serializers.CharField(max_length=4000, required=False, allow_blank=True)
    languages = serializers.ListField(child=serializers.CharField(max_length=8), required=False)
    time_zone = serializers.CharField(max_length=64, required=False)
    access = serializers.ChoiceField(choices=Club.Access.choices, required=False)


class ClubUpdateSerializer(ClubCreateSerializer):
    name = serializers.CharField(max_length=80, required=False)
    slug = None  # type: ignore[assignment]


class ClubMemberSerializer(serializers.ModelSerializer[Membership]):
    username = serializers.CharField(source="user.username")
    name = serializers.CharField(source="user.get_display_name")
    rights = serializers.ListField(child=serializers.CharField())

    class Meta:
        model = Membership
        fields = ("username", "name", "joined_at", "rights")


class ClubRightsSerializer(serializers.Serializer[Any]):
    rights = serializers.ListField(child=serializers.ChoiceField(choices=RIGHTS))


class ClubJoinSerializer(serializers.Serializer[Any]):
    message = serializers.CharField(max_length=300, required=False, allow_blank=True)


class ClubJoinAnswerSerializer(serializers.Serializer[Any]):
    status = serializers.CharField(help_text="member (joined) or pending (asked to join)")


class ClubRequestSerializer(serializers.ModelSerializer[JoinRequest]):
    username = serializers.CharField(source="user.username")

    class Meta:
        model = JoinRequest
        fields = ("id", "username", "message", "created_at")


class ClubInvitationSerializer(serializers.ModelSerializer[Invitation]):
    class Meta:
        model = Invitation
        fields = ("id", "token", "expires_at", "uses")


class ClubInvitationCreateSerializer(serializers.Serializer[Any]):
    days = serializers.IntegerField(min_value=1, max_value=30, default=7)


class ClubEventSerializer(serializers.Serializer[Any]):
    tournament_id = serializers.IntegerField()
    name = serializers.CharField(source="tournament.name")
    status = serializers.CharField(source="tournament.status")
    starts_at = serializers.DateTimeField(source="tournament.starts_at")
    members_only = serializers.BooleanField()


class ClubsView(ClubsAPIView):
    @extend_schema(summary="The clubs, largest first", responses={200: ClubSerializer(many=True)})
    def get(self, request: Request) -> Response:
        return Response(ClubSerializer(selectors.club_list()[:200], many=True).data)

    @extend_schema(
        summary="Found a club (you become its first member, with every right)",
        request=ClubCreateSerializer,
        responses={201: ClubSerializer, **ERRORS},
    )
    def post(self, request: Request) -> Response:
        serializer = ClubCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        club = services.club_create(user=signed_in(request.user), **serializer.validated_data)
        return Response(ClubSerializer(club).data, status=status.HTTP_201_CREATED)


class ClubView(ClubsAPIView):
    @extend_schema(summary="One club", responses={200: ClubSerializer, **ERRORS})
    def get(self, request: Request, slug: str) -> Response:
        return Response(ClubSerializer(club_named(slug)).data)

    @extend_schema(
        summary="Change a club's settings (the settings right)",
        request=ClubUpdateSerializer,
        responses={200: ClubSerializer, **ERRORS},
    )
    def patch(self, request: Request, slug: str) -> Response:
        club = club_named(slug)
        serializer = ClubUpdateSerializer(data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        club = services.club_update(
            user=signed_in(request.user), club=club, **serializer.validated_data
        )
        return Response(ClubSerializer(club).data)


class JoinView(ClubsAPIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Join a public club, or ask to join another",
        request=ClubJoinSerializer,
        responses={200: ClubJoinAnswerSerializer, **ERRORS},
    )
    def post(self, request: Request, slug: str) -> Response:
        serializer = ClubJoinSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        result = services.club_join(
            user=signed_in(request.user), club=club_named(slug), **serializer.validated_data
        )
        answer = "member" if isinstance(result, Membership) else "pending"
        return Response({"status": answer})


class LeaveView(ClubsAPIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(summary="Leave a club", request=None, responses={204: None, **ERRORS})
    def post(self, request: Request, slug: str) -> Response:
        services.club_leave(user=signed_in(request.user), club=club_named(slug))
        return Response(status=status.HTTP_204_NO_CONTENT)


class MembersView(ClubsAPIView):
    @extend_schema(
        summary="A club's members and their rights", responses={200: ClubMemberSerializer}
    )
    def get(self, request: Request, slug: str) -> Response:
        rows = selectors.members(club=club_named(slug))
        return Response(ClubMemberSerializer(rows, many=True).data)


class MemberView(ClubsAPIView):
    permission_classes = [permissions.IsAuthenticated]

    def _member(self, username: str) -> Any:
        member = user_by_username(username)
        if member is None:
            raise errors.NotFound(errors.NotFound.default_message)
        return member

    @extend_schema(
        summary="Give a member exactly these rights (the roles right)",
        request=ClubRightsSerializer,
        responses={200: ClubMemberSerializer, **ERRORS},
    )
    def patch(self, request: Request, slug: str, username: str) -> Response:
        serializer = ClubRightsSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        membership = services.member_set_rights(
            user=signed_in(request.user),
            club=club_named(slug),
            member=self._member(username),
            rights=set(serializer.validated_data["rights"]),
        )
        return Response(ClubMemberSerializer(membership).data)

    @extend_schema(
        summary="Remove a member (the members right)",
        request=None,
        responses={204: None, **ERRORS},
    )
    def delete(self, request: Request, slug: str, username: str) -> Response:
        services.member_remove(
            user=signed_in(request.user), club=club_named(slug), member=self._member(username)
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


def _managed(request: Request, slug: str, right: str) -> Club:
    club = club_named(slug)
    if not selectors.can(user=request.user, club=club, right=right):
        raise errors.Forbidden()
    return club


class RequestsView(ClubsAPIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Requests to join, waiting (the members right)",
        responses={200: ClubRequestSerializer(many=True), **ERRORS},
    )
    def get(self, request: Request, slug: str) -> Response:
        club = _managed(request, slug, "members")
        return Response(ClubRequestSerializer(selectors.join_requests(club=club), many=True).data)


class RequestAnswerView(ClubsAPIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Accept or decline a request to join (the members right)",
        request=None,
        responses={204: None, **ERRORS},
    )
    def post(self, request: Request, slug: str, request_id: int, answer: str) -> Response:
        club = club_named(slug)
        join_request = JoinRequest.objects.filter(pk=request_id, club=club).first()
        if join_request is None or answer not in ("accept", "decline"):
            raise errors.NotFound()
        services.join_request_answer(
            user=signed_in(request.user), join_request=join_request, accept=answer == "accept"
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class InvitationsView(ClubsAPIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="The club's valid invitation links (the members right)",
        responses={200: ClubInvitationSerializer(many=True), **ERRORS},
    )
    def get(self, request: Request, slug: str) -> Response:
        club = _managed(request, slug, "members")
        return Response(ClubInvitationSerializer(selectors.invitations(club=club), many=True).data)

    @extend_schema(
        summary="A new invitation link (the members right)",
        request=ClubInvitationCreateSerializer,
        responses={201: ClubInvitationSerializer, **ERRORS},
    )
    def post(self, request: Request, slug: str) -> Response:
        serializer = ClubInvitationCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        invitation = services.invitation_create(
            user=signed_in(request.user),
            club=club_named(slug),
            days=serializer.validated_data["days"],
        )
        return Response(ClubInvitationSerializer(invitation).data, status=status.HTTP_201_CREATED)


class InvitationView(ClubsAPIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Revoke an invitation link (the members right)",
        request=None,
        responses={204: None, **ERRORS},
    )
    def delete(self, request: Request, slug: str, invitation_id: int) -> Response:
        invitation = Invitation.objects.filter(pk=invitation_id, club__slug=slug).first()
        if invitation is None:
            raise errors.NotFound()
        services.invitation_revoke(user=signed_in(request.user), invitation=invitation)
        return Response(status=status.HTTP_204_NO_CONTENT)


class InvitationAcceptView(ClubsAPIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Join the club of an invitation link",
        request=None,
        responses={200: ClubJoinAnswerSerializer, **ERRORS},
    )
    def post(self, request: Request, token: str) -> Response:
        services.invitation_accept(user=signed_in(request.user), token=token)
        return Response({"status": "member"})


class EventsView(ClubsAPIView):
    @extend_schema(
        summary="A club's upcoming and past events", responses={200: ClubEventSerializer(many=True)}
    )
    def get(self, request: Request, slug: str) -> Response:
        upcoming, past = selectors.events(club=club_named(slug))
        return Response(ClubEventSerializer([*upcoming, *past], many=True).data)


class ClubMessageSerializer(serializers.ModelSerializer[ClubMessage]):
    sender = serializers.CharField(source="sender.username", default=None, read_only=True)

    class Meta:
        model = ClubMessage
        fields = ("id", "subject", "text", "sender", "sent_at", "recipients")
        read_only_fields = ("id", "sender", "sent_at", "recipients")


class ClubMessageCreateSerializer(serializers.Serializer[Any]):
    subject = serializers.CharField(max_length=services.SUBJECT_MAX)
    text = serializers.CharField(max_length=services.MESSAGE_MAX, trim_whitespace=False)


class MessagesView(ClubsAPIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="The club's messages to its members, newest first (its members)",
        responses={200: ClubMessageSerializer(many=True), **ERRORS},
    )
    def get(self, request: Request, slug: str) -> Response:
        club = club_named(slug)
        if not selectors.may_read_messages(club=club, viewer=request.user):
            raise errors.Forbidden()
        rows = selectors.messages_for(club=club, viewer=request.user)[:100]
        return Response(ClubMessageSerializer(rows, many=True).data)

    @extend_schema(
        summary="Send a message to every member (the messages right; a few a club a day)",
        request=ClubMessageCreateSerializer,
        responses={201: ClubMessageSerializer, **ERRORS},
    )
    def post(self, request: Request, slug: str) -> Response:
        serializer = ClubMessageCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        sent = services.club_message_send(
            club=club_named(slug), sender=signed_in(request.user), **serializer.validated_data
        )
        return Response(ClubMessageSerializer(sent).data, status=status.HTTP_201_CREATED)


class ClubMembershipSerializer(serializers.ModelSerializer[Membership]):
    rights = serializers.ListField(child=serializers.CharField(), read_only=True)

    class Meta:
        model = Membership
        fields = ("joined_at", "rights", "messages_off")
        read_only_fields = ("joined_at", "rights")


class ClubMembershipUpdateSerializer(serializers.Serializer[Any]):
    messages_off = serializers.BooleanField(
        help_text="true: the club's messages no longer reach your notifications"
    )


class MembershipView(ClubsAPIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Your membership: your rights and whether the club's messages reach you",
        responses={200: ClubMembershipSerializer, **ERRORS},
    )
    def get(self, request: Request, slug: str) -> Response:
        mine = selectors.membership_of(user=request.user, club=club_named(slug))
        if mine is None:
            raise errors.NotFound(_("You are not a member of this club."))
        return Response(ClubMembershipSerializer(mine).data)

    @extend_schema(
        summary="Leave the club's messages off, or on again",
        request=ClubMembershipUpdateSerializer,
        responses={200: ClubMembershipSerializer, **ERRORS},
    )
    def patch(self, request: Request, slug: str) -> Response:
        serializer = ClubMembershipUpdateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        mine = services.member_set_messages(
            user=signed_in(request.user),
            club=club_named(slug),
            off=serializer.validated_data["messages_off"],
        )
        return Response(ClubMembershipSerializer(mine).data)
