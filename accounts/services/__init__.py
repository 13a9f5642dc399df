"""Writes on accounts. Keyword-only, atomic; they raise ValidationError and change nothing."""

from importlib import import_module

from django.conf import settings
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.tokens import default_token_generator
from django.core import signing
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _
from rest_framework.authtoken.models import Token

from accounts import limits
from accounts.mail import address_clean, mail_queue
from accounts.models import SignIn, User

EMAIL_CONFIRM_SALT = "accounts.email.confirm"


@transaction.atomic
def user_create(
    *,
    username: str,
    password: str,
    display_name: str = "",
    email: str = "",
    base_url: str = "",
) -> User:
    """Create a player account after validating the name and the password strength. An
    address, if given, awaits confirmation by the link mailed to it (``base_url``: the
    site's address the link starts with)."""
    user = User(username=username, display_name=display_name.strip())
    user.full_clean(exclude=["password"])
    validate_password(password, user)
    user.set_password(password)
    user.save()
    if email:
        email_change_request(user=user, email=email, base_url=base_url)
    return user


def _email_taken(email: str, *, by_other_than: User) -> bool:
    return User.objects.filter(email__iexact=email).exclude(pk=by_other_than.pk).exists()


@transaction.atomic
def email_change_request(*, user: User, email: str, base_url: str) -> User:
    """Give the account a new address: it awaits confirmation by a link mailed to it
    (the confirmed address, if any, stays until then). Raises ValidationError on
    ``email`` for an invalid address or one another account has."""
    try:
        email = address_clean(email)
    except ValidationError as exc:
        raise ValidationError({"email": exc.messages}) from exc
    if user.email and user.email.lower() == email.lower():
        raise ValidationError({"email": _("This is already your address.")})
    if _email_taken(email, by_other_than=user):
        raise ValidationError({"email": _("This address belongs to another account.")})
    user.email_pending = email
    user.save(update_fields=["email_pending"])
    token = signing.dumps({"u": user.pk, "e": email}, salt=EMAIL_CONFIRM_SALT)
    link = base_url.rstrip("/") + reverse("accounts:email_confirm", args=[token])
    mail_queue(kind="email_confirm", to=email, user=user, context={"link": link})
    return user


@transaction.atomic
def email_confirm(*, token: str, visitor: User | None) -> User:
    """Confirm the address a link was mailed to. A link that is tampered with, expired,
    used or replaced by a newer one, or for another account than the one signed in,
    changes nothing (ValidationError saying which). The old address is told."""
    try:
        data = signing.loads(
            token, salt=EMAIL_CONFIRM_SALT, max_age=settings.ACCOUNTS_EMAIL_CONFIRM_SECONDS
        )
    except signing.SignatureExpired as exc:
        raise ValidationError(_("This link has expired. Ask for a new one.")) from exc
    except signing.BadSignature as exc:
        raise ValidationError(_("This link is not valid.")) from exc
    user = User.objects.select_for_update().filter(pk=data.get("u"), is_active=True).first()
    email = str(data.get("e") or "")
    if user is None:
        raise ValidationError(_("This link is not valid."))
    if visitor is not None and visitor.pk != user.pk:
        raise ValidationError(_("This link is for another account. Sign out first."))
    if not email or user.email_pending.lower() != email.lower():
        raise ValidationError(_("This link was already used, or a newer one replaced it."))
    if _email_taken(email, by_other_than=user):
        raise ValidationError(_("This address belongs to another account."))
    old = user.email
    user.email, user.email_pending = email, ""
    user.save(update_fields=["email", "email_pending"])
    if old and old.lower() != email.lower():
        mail_queue(kind="email_changed", to=old, user=user, context={"old": old})
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


# ------------------------------------------------------------------ where one is signed in


@transaction.atomic
def signin_record(*, user: User, session_key: str, user_agent: str) -> SignIn:
    """Note a new sign-in: its session and the device it came from."""
    signin, _created = SignIn.objects.update_or_create(
        session_key=session_key, defaults={"user": user, "user_agent": user_agent}
    )
    return signin


@transaction.atomic
def signin_seen(*, user: User, session_key: str, user_agent: str) -> None:
    """The browser of a session came back: note when (and record a sign-in made before
    sign-ins were recorded)."""
    updated = SignIn.objects.filter(session_key=session_key, user=user).update(
        last_seen=timezone.now()
    )
    if not updated:
        SignIn.objects.filter(session_key=session_key).delete()
        SignIn.objects.create(user=user, session_key=session_key, user_agent=user_agent)


def _sessions_delete(keys: list[str]) -> None:
    store = import_module(settings.SESSION_ENGINE).SessionStore
    for key in keys:
        store(session_key=key).delete()
    SignIn.objects.filter(session_key__in=keys).delete()


@transaction.atomic
def signin_revoke(*, user: User, signin_id: int) -> bool:
    """Sign one browser of the account out; True if it was signed in."""
    keys = list(
        SignIn.objects.filter(user=user, pk=signin_id).values_list("session_key", flat=True)
    )
    _sessions_delete(keys)
    return bool(keys)


@transaction.atomic
def signins_revoke(*, user: User, keep_session_key: str | None = None) -> int:
    """Sign every browser of the account out but the one of ``keep_session_key``; open
    websockets of the account close too (credential_generation_advance). Returns how many."""
    keys = list(
        SignIn.objects.filter(user=user)
        .exclude(session_key=keep_session_key or "")
        .values_list("session_key", flat=True)
    )
    _sessions_delete(keys)
    credential_generation_advance(user=user)
    return len(keys)


# ------------------------------------------------------------------ forgotten passwords


def password_reset_request(*, email: str, address: str, base_url: str) -> None:
    """Mail a password-reset link to the account whose confirmed address is ``email``.
    Says nothing either way (no account, a throttled request and a sent mail look the
    same to the caller): the link works once (the password it resets is part of the
    token) and for ``PASSWORD_RESET_TIMEOUT`` seconds."""
    try:
        email = address_clean(email)
    except ValidationError:
        return
    user = User.objects.filter(email__iexact=email, is_active=True).first()
    allowed = limits.reset_allowed(
        email=email, address=address, user_id=user.pk if user is not None else None
    )
    if user is None or not allowed or not user.has_usable_password():
        return
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    link = base_url.rstrip("/") + reverse("accounts:password_reset_confirm", args=[uid, token])
    hours = max(1, settings.PASSWORD_RESET_TIMEOUT // 3600)
    with transaction.atomic():
        mail_queue(
            kind="password_reset", to=user.email, user=user, context={"link": link, "hours": hours}
        )


@transaction.atomic
def user_password_reset(*, user: User, new_password: str) -> User:
    """Set a new password from a reset link: every browser the account is signed in on is
    signed out, its API token revoked and its websockets closed."""
    try:
        validate_password(new_password, user)
    except ValidationError as exc:
        raise ValidationError({"new_password1": exc.messages}) from exc
    user.set_password(new_password)
    user.save(update_fields=["password"])
    token_revoke(user=user)
    signins_revoke(user=user)
    return user


# Split along its seams; callers import every service from here.
from accounts.services.closing import (  # noqa: E402
    account_close as account_close,
)
from accounts.services.closing import (  # noqa: E402
    account_data_export as account_data_export,
)
from accounts.services.closing import (  # noqa: E402
    account_erase as account_erase,
)
from accounts.services.closing import (  # noqa: E402
    account_reopen as account_reopen,
)
from accounts.services.closing import (  # noqa: E402
    accounts_closed_erase as accounts_closed_erase,
)
from accounts.services.notices import (  # noqa: E402
    notice_queue as notice_queue,
)
from accounts.services.notices import (  # noqa: E402
    notice_unsubscribe as notice_unsubscribe,
)
from accounts.services.notices import (  # noqa: E402
    notices_choose as notices_choose,
)
from accounts.services.two_factor import (  # noqa: E402
    otp_check as otp_check,
)
from accounts.services.two_factor import (  # noqa: E402
    otp_disable as otp_disable,
)
from accounts.services.two_factor import (  # noqa: E402
    otp_enabled as otp_enabled,
)
from accounts.services.two_factor import (  # noqa: E402
    recovery_codes_renew as recovery_codes_renew,
)
from accounts.services.two_factor import (  # noqa: E402
    totp_begin as totp_begin,
)
from accounts.services.two_factor import (  # noqa: E402
    totp_confirm as totp_confirm,
)
