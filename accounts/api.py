"""The accounts API: who am I, edit my profile, get an API token."""

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.utils import (
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
    extend_schema_view,
)
from rest_framework import permissions, serializers
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from accounts.models import User
from accounts.services import user_create, user_profile_update


# The docs' "Try it out" fills a form with each field's example: a real code, not "string".
@extend_schema_field({"type": "string", "example": "UA", "maxLength": 2})
class CountryCodeField(serializers.CharField):
    pass


class MeSerializer(serializers.ModelSerializer[User]):
    country = CountryCodeField(
        allow_blank=True,
        required=False,
        help_text="Two-letter ISO 3166 code (UA, PL, …), or empty.",
    )

    class Meta:
        model = User
        fields = ("id", "username", "display_name", "country", "preferred_language")
        read_only_fields = ("id", "username")


NOT_SIGNED_IN = OpenApiResponse(description="Not signed in and no valid token.")


@extend_schema_view(
    get=extend_schema(
        tags=["accounts"], summary="Your profile", responses={200: MeSerializer, 401: NOT_SIGNED_IN}
    ),
    patch=extend_schema(
        tags=["accounts"],
        summary="Change your profile",
        responses={
            200: MeSerializer,
            400: OpenApiResponse(description="A field is not valid; nothing was changed."),
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
            user_profile_update(
                user=User.objects.get(pk=user.pk),
                display_name=data.get("display_name", user.display_name),
                country=data.get("country", str(user.country or "")),
                preferred_language=data.get("preferred_language", user.preferred_language),
            )
        except DjangoValidationError as exc:
            raise ValidationError(exc.message_dict) from exc
        return Response(MeSerializer(User.objects.get(pk=user.pk)).data)


@extend_schema_view(
    post=extend_schema(
        tags=["accounts"],
        summary="Get an API token",
        auth=[],
        request=AuthTokenSerializer,
        responses={
            200: AuthTokenSerializer,
            400: OpenApiResponse(description="Wrong username or password."),
        },
    )
)
class TokenView(ObtainAuthToken):
    """Exchange a username (in any case) and password for an API token.

    Send them as a form or as JSON. The same player always gets the same token.
    """

    # The credentials are the authentication: a signed-in browser needs no CSRF token.
    authentication_classes = []


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
            400: OpenApiResponse(description="The name is taken or the password is too weak."),
        },
    )
)
class SignupView(APIView):
    """Create a player account and get its API token at once (for clients that are not
    browsers: bots, tests, other front ends). The same checks as the sign-up page."""

    authentication_classes = []
    permission_classes = [permissions.AllowAny]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "signup"

    def post(self, request: Request) -> Response:
        serializer = SignupSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        try:
            user = user_create(
                username=data["username"], password=data["password"], display_name=data.get("display_name", "")
            )
        except DjangoValidationError as exc:
            errors = dict(getattr(exc, "message_dict", {"password": exc.messages}))
            if "__all__" in errors:  # the case-insensitive unique name constraint
                errors["username"] = errors.pop("__all__")
            raise ValidationError(errors) from exc
        token, _ = Token.objects.get_or_create(user=user)
        return Response({"id": user.pk, "username": user.username, "token": token.key}, status=201)
