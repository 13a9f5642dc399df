"""A person's data, and closing an account: a grace period, then the name and the
addresses erased and replaced by a neutral label (docs/accounts.md says what is kept)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.sessions.models import Session
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.models import TOTPDevice
from rest_framework.authtoken.models import Token

from accounts.models import Mail, NoticeChoice, SignIn, User
from accounts.signals import account_data, account_erasing

ERASED_PREFIX = "closed-"


def account_data_export(*, user: User) -> dict[str, Any]:
    """Everything the service holds about ``user``, as JSON-ready data."""
    data: dict[str, Any] = {
        "profile": {
            "id": user.pk,
            "username": user.username,
            "display_name": user.display_name,
            "email": user.email,
            "email_pending": user.email_pending,
            "country": str(user.country),
            "preferred_language": user.preferred_language,
            "time_zone": user.time_zone,
            "date_joined": user.date_joined.isoformat(),
            "last_login": user.last_login.isoformat() if user.last_login else None,
            "two_factor": TOTPDevice.objects.filter(user=user, confirmed=True).exists(),
            "api_token": Token.objects.filter(user=user).exists(),
        },
        "sign_ins": [
            {
                "device": s.user_agent,
                "signed_in": s.created_at.isoformat(),
                "last_seen": s.last_seen.isoformat(),
            }
            for s in SignIn.objects.filter(user=user)
        ],
        "email_notices": [c.kind for c in NoticeChoice.objects.filter(user=user).order_by("kind")],
        "mail": [
            {"kind": m.kind, "to": m.to, "subject": m.subject, "created": m.created_at.isoformat()}
            for m in Mail.objects.filter(user=user)
        ],
    }
    for _receiver, section in account_data.send(sender=User, user=user):
        if isinstance(section, tuple):
            data[str(section[0])] = section[1]
    return data


@transaction.atomic
def account_close(*, user: User, password: str) -> User:
    """Close the account (the password confirms it): signed out everywhere at once, its
    API token revoked; erased after ``ACCOUNTS_CLOSE_GRACE_SECONDS`` unless the person
    asks the staff to reopen it before then."""
    from accounts.services import signins_revoke, token_revoke

    if not user.check_password(password):
        raise ValidationError({"password": _("Your password was entered incorrectly.")})
    user.closed_at = timezone.now()
    user.is_active = False
    user.save(update_fields=["closed_at", "is_active"])
    token_revoke(user=user)
    signins_revoke(user=user)
    return user


@transaction.atomic
def account_reopen(*, user: User) -> User:
    """Undo a closing within the grace period (the admin's action)."""
    if user.closed_at is None or user.username.startswith(ERASED_PREFIX):
        raise ValidationError(_("This account is not waiting to be erased."))
    user.closed_at = None
    user.is_active = True
    user.save(update_fields=["closed_at", "is_active"])
    return user


@transaction.atomic
def account_erase(*, user: User) -> User:
    """Erase a closed account: its name, addresses and settings go, its chat lines
    (account_erasing's receivers) too; the row stays under a neutral label, so match
    records and other players' ratings stay whole."""
    from accounts.services import credential_generation_advance

    label = f"{ERASED_PREFIX}{user.pk}"
    account_erasing.send(sender=User, user=user)
    for session in Session.objects.filter(
        session_key__in=SignIn.objects.filter(user=user).values("session_key")
    ):
        session.delete()
    SignIn.objects.filter(user=user).delete()
    Token.objects.filter(user=user).delete()
    TOTPDevice.objects.filter(user=user).delete()
    StaticDevice.objects.filter(user=user).delete()
    Mail.objects.filter(user=user).delete()
    NoticeChoice.objects.filter(user=user).delete()
    user.username, user.display_name = label, ""
    user.first_name = user.last_name = user.email = user.email_pending = ""
    user.country, user.time_zone, user.preferred_language = "", "", ""
    user.is_active = user.is_staff = user.is_superuser = False
    user.set_unusable_password()
    user.save()
    user.groups.clear()
    user.user_permissions.clear()
    credential_generation_advance(user=user)
    return user


def accounts_closed_erase(*, grace_seconds: int) -> int:
    """Erase every closed account whose grace period is over; returns how many."""
    due = timezone.now() - timedelta(seconds=grace_seconds)
    ids = list(
        User.objects.filter(closed_at__lte=due)
        .exclude(username__startswith=ERASED_PREFIX)
        .values_list("pk", flat=True)
    )
    for pk in ids:
        with transaction.atomic():
            user = User.objects.select_for_update().get(pk=pk)
            if not user.username.startswith(ERASED_PREFIX):
                account_erase(user=user)
    return len(ids)
