"""Writes on accounts. Keyword-only, atomic; they raise ValidationError and change nothing."""

from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _
from rest_framework.authtoken.models import Token

from accounts.models import User


@transaction.atomic
def user_create(
    *,
    username: str,
    password: str,
    display_name: str = "",
    email: str = "",
) -> User:
    """Create a player account after validating the name and the password strength."""
    user = User(username=username, display_name=display_name.strip(), email=email)
    user.full_clean(exclude=["password"])
    validate_password(password, user)
    user.set_password(password)
    user.save()
    return user


@transaction.atomic
def user_profile_update(
    *,
    user: User,
    display_name: str,
    country: str,
    preferred_language: str,
    time_zone: str | None = None,
) -> User:
    """Change what a player shows to others, and the language and the time zone the site
    speaks to him in (``time_zone=None`` keeps the zone he has)."""
    user.display_name = display_name.strip()
    user.country = country
    user.preferred_language = preferred_language
    if time_zone is not None:
        user.time_zone = time_zone
    user.full_clean(exclude=["password"])
    user.save(update_fields=["display_name", "country", "preferred_language", "time_zone"])
    return user


@transaction.atomic
def user_language_update(*, user: User, language: str) -> User:
    """Make ``language`` the player's preferred language (the header's language menu)."""
    user.preferred_language = User._meta.get_field("preferred_language").clean(language, user)
    user.save(update_fields=["preferred_language"])
    return user


@transaction.atomic
def credential_generation_advance(*, user: User) -> int:
    """Say that what signed the player in until now may no longer hold (his API token
    revoked or rotated, his password changed, a sign-out, the account deactivated): every
    websocket signed in before closes within ``GAMES_WS_CREDENTIAL_SECONDS``, on every
    server, whatever becomes of Redis (core.ws_guard). Kept in PostgreSQL, in the same
    transaction as the revocation; returns the new generation (``user`` has it too)."""
    User.objects.filter(pk=user.pk).update(credential_generation=F("credential_generation") + 1)
    found = User.objects.filter(pk=user.pk).values_list("credential_generation", flat=True)
    user.credential_generation = found.first() or 0
    return user.credential_generation


@transaction.atomic
def token_get_or_create(*, user: User) -> Token:
    """The player's API token: the same one until it is revoked or rotated."""
    token, _created = Token.objects.get_or_create(user=user)
    return token


@transaction.atomic
def token_revoke(*, user: User) -> bool:
    """Revoke the player's API token; True if there was one. Clients using it get 401."""
    deleted, _per_model = Token.objects.filter(user=user).delete()
    return deleted > 0


@transaction.atomic
def token_rotate(*, user: User) -> Token:
    """Replace the player's API token with a new one; the old one stops working at once."""
    Token.objects.filter(user=user).delete()
    return Token.objects.create(user=user)


@transaction.atomic
def user_password_change(*, user: User, old_password: str, new_password: str) -> User:
    """Change a player's password after checking the old one and the new one's strength;
    the API token is revoked with it (whoever had it must sign in again)."""
    if not user.check_password(old_password):
        raise ValidationError({"old_password": _("Your old password was entered incorrectly.")})
    try:
        validate_password(new_password, user)
    except ValidationError as exc:
        raise ValidationError({"new_password": exc.messages}) from exc
    user.set_password(new_password)
    user.save(update_fields=["password"])
    token_revoke(user=user)
    return user
