"""The accounts API: who am I, edit my profile, get an API token."""

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
    extend_schema_view,
)
from rest_framework import exceptions, permissions, serializers
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import limits, selectors
from accounts.models import NoticeKind, User
from accounts.services import (
    notices_choose,
    otp_check,
    otp_enabled,
    token_get_or_create,
    token_revoke,
    token_rotate,
    user_create,
    user_profile_update,
)
from accounts.timezones import validate_time_zone
from core.api_errors import ErrorSerializer


# The docs' "Try it out" fills a form with each field's example: a real code, not "string".
@extend_schema_field({"type": "string", "example": "UA", "maxLength": 2})
class CountryCodeField(serializers.CharField):
    pass


@extend_schema_field({"type": "string", "example": "Europe/Kyiv", "maxLength": 64})
class TimeZoneField(serializers.CharField):
    pass


@extend_schema_field(
    {
        "type": "array",
        "items": {"type": "string", "enum": list(NoticeKind.values)},
        "example": [NoticeKind.TOURNAMENT_REMINDER.value],
    }
)
class NoticeKindsField(serializers.ListField):
    pass


class MeSerializer(serializers.ModelSerializer[User]):
    country = CountryCodeField(
        allow_blank=True,
        required=False,
        help_text="Two-letter ISO 3166 code (UA, PL, …), or empty.",
    )
    time_zone = TimeZoneField(
        allow_blank=True,
        required=False,
        max_length=64,
        validators=[validate_time_zone],
        help_text="An IANA time zone (Europe/Kyiv, America/Toronto, …) the site shows "
        "times in for you, or empty for the site's zone.",
    )
    email_notices = NoticeKindsField(
        child=serializers.ChoiceField(choices=NoticeKind.choices),
        required=False,
        help_text="The kinds of notice mailed to your confirmed address (each off until "
        "named here); the list given replaces the one you had.",
    )

    class Meta:
        model = User
        fields = (
            "id",
            "username",
            "display_name",
            "country",
            "preferred_language",
            "time_zone",
            "email_notices",
        )
        read_only_fields = ("id", "username")

    def to_representation(self, instance: User) -> dict[str, Any]:
        data: dict[str, Any] = super().to_representation(instance)
        data["email_notices"] = selectors.notices_chosen(user=instance)
        return data


NOT_SIGNED_IN = OpenApiResponse(ErrorSerializer, description="Not signed in and no valid token.")


@extend_schema_view(
    get=extend_schema(
        tags=["accounts"], summary="Your profile", responses={200: MeSerializer, 401: NOT_SIGNED_IN}
    ),
    patch=extend_schema(
        tags=["accounts"],
        summary="Change your profile",
        responses={
            200: MeSerializer,
            400: OpenApiResponse(
                ErrorSerializer, description="A field is not valid; nothing was changed."
            ),
            401: NOT_SIGNED_IN,
        },
    ),
)
class MeView(APIView):
    """The signed-in player's profile (session or `Authorization: Token …`)."""

    permission_classes = [permissions.IsAuthenticated]
    serializer_class = MeSerializer

    def get(self, request: Request) -> Response:
        assert isinstance(request.user, User)
        return Response(MeSerializer(request.user).data)

    def patch(self, request: Request) -> Response:
        user = request.user
        assert isinstance(user, User)
        serializer = MeSerializer(user, data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        data: dict[str, Any] = serializer.validated_data
        try:
            with transaction.atomic():
                user_profile_update(
                    user=User.objects.get(pk=user.pk),
                    display_name=data.get("display_name", user.display_name),
                    country=data.get("country", str(user.country or "")),
                    preferred_language=data.get("preferred_language", user.preferred_language),
                    time_zone=data.get("time_zone", user.time_zone),
                )
                if "email_notices" in data:
                    notices_choose(user=user, kinds=data["email_notices"])
        except DjangoValidationError as exc:
            raise ValidationError(exc.message_dict) from exc
        return Response(MeSerializer(User.objects.get(pk=user.pk)).data)


class TokenResultSerializer(serializers.Serializer[Any]):
    token = serializers.CharField()


TOO_MANY = OpenApiResponse(
    ErrorSerializer,
    description="Too many failed sign-ins for this account or from this address; `Retry-After` says when to try again.",
)


class SigninLockedError(exceptions.Throttled):
    """429 with Retry-After, in the one error shape (``rate_limited``)."""

    def __init__(self, seconds: float) -> None:
        super().__init__(wait=seconds, detail=limits.locked_message(seconds))


@extend_schema_view(
    post=extend_schema(
        tags=["accounts"],
        summary="Get an API token",
        auth=[],
        request=AuthTokenSerializer,
        responses={
            200: TokenResultSerializer,
            400: OpenApiResponse(
                ErrorSerializer,
                description="Wrong username or password, or (two-factor sign-in on) "
                "a missing or wrong `otp` code.",
            ),
            429: TOO_MANY,
        },
    ),
    delete=extend_schema(
        tags=["accounts"],
        summary="Revoke your API token",
        request=None,
        responses={204: None, 401: NOT_SIGNED_IN},
    ),
)
class TokenView(APIView):
    """Exchange a username (in any case) and password for an API token (POST), or revoke
    the token you use (DELETE: every client using it gets 401 until it asks for a new one).

    Send them as a form or as JSON; an account with two-factor sign-in on also sends
    ``otp``, a code from its authenticator app (or a recovery code). The same player gets the same token until it is
    revoked, rotated or the password is changed. Failed sign-ins are limited per account
    and per address (docs/security.md).
    """

    def get_authenticators(self) -> list[Any]:
        # POST: the credentials are the authentication (a signed-in browser needs no CSRF
        # token). DELETE: the token or the session being revoked.
        if self.request is not None and self.request.method == "POST":
            return []
        return super().get_authenticators()

    def get_permissions(self) -> list[Any]:
        if self.request is not None and self.request.method == "POST":
            return [permissions.AllowAny()]
        return [permissions.IsAuthenticated()]

    def post(self, request: Request) -> Response:
        serializer = AuthTokenSerializer(data=request.data, context={"request": request})
        if not serializer.is_valid():
            wait = getattr(request, "signin_locked_for", None)
            if wait is None:
                wait = limits.signin_wait(
                    request,
                    str(request.data.get("username") or "") or None
                    if hasattr(request.data, "get")
                    else None,
                )
            if wait is not None:
                raise SigninLockedError(wait)
            raise ValidationError(serializer.errors)
        user = serializer.validated_data["user"]
        if otp_enabled(user=user):
            # Two-factor sign-in on: the password alone gives no token.
            code = str(request.data.get("otp") or "") if hasattr(request.data, "get") else ""
            if otp_check(user=user, code=code) is None:
                limits.signin_failure_record(
                    username=user.get_username(),
                    address=limits.client_address(request),
                    device=limits.known_device(request, user.get_username()),
                )
                raise ValidationError(
                    {"otp": [_("Two-factor sign-in is on: send the code as otp.")]}
                )
        limits.signin_succeeded(request, user.get_username())
        return Response({"token": token_get_or_create(user=user).key})

    def delete(self, request: Request) -> Response:
        assert isinstance(request.user, User)
        token_revoke(user=request.user)
        return Response(status=204)


@extend_schema(
    tags=["accounts"],
    summary="Replace your API token",
    request=None,
    responses={200: TokenResultSerializer, 401: NOT_SIGNED_IN},
)
class TokenRotateView(APIView):
    """A new API token for you; the old one stops working at once."""

    permission_classes = [permissions.IsAuthenticated]

    def post(self, request: Request) -> Response:
        assert isinstance(request.user, User)
        return Response({"token": token_rotate(user=request.user).key})


class SignupSerializer(serializers.Serializer[Any]):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(write_only=True, style={"input_type": "password"})
    display_name = serializers.CharField(max_length=40, required=False, allow_blank=True)


class SignupResultSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    username = serializers.CharField()
    token = serializers.CharField()


@extend_schema_view(
    post=extend_schema(
        tags=["accounts"],
        summary="Create an account",
        auth=[],
        request=SignupSerializer,
        responses={
            201: SignupResultSerializer,
            400: OpenApiResponse(
                ErrorSerializer, description="The name is taken or the password is too weak."
            ),
            429: OpenApiResponse(
                ErrorSerializer, description="Too many sign-ups from this address."
            ),
        },
    )
)
class SignupView(APIView):
    """Create a player account and get its API token at once (for clients that are not
    browsers: bots, tests, other front ends). The same checks as the sign-up page."""

    authentication_classes = []
    permission_classes = [permissions.AllowAny]
    throttle_classes = [limits.SignupThrottle]

    def post(self, request: Request) -> Response:
        serializer = SignupSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        try:
            user = user_create(
                username=data["username"],
                password=data["password"],
                display_name=data.get("display_name", ""),
            )
        except DjangoValidationError as exc:
            errors = dict(getattr(exc, "message_dict", {"password": exc.messages}))
            if "__all__" in errors:  # the case-insensitive unique name constraint
                errors["username"] = errors.pop("__all__")
            raise ValidationError(errors) from exc
        token = token_get_or_create(user=user)
        return Response({"id": user.pk, "username": user.username, "token": token.key}, status=201)
