"""Two-factor sign-in: an authenticator app's codes (TOTP) and single-use recovery codes.

django-otp keeps the devices: a ``TOTPDevice`` refuses a code of a time step it already
accepted (``last_t``) and slows down after failures; a ``StaticDevice`` named
``recovery`` holds the recovery codes, each deleted when used.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django_otp import match_token, user_has_device
from django_otp.models import Device
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from accounts.models import User

RECOVERY_CODES = 10
RECOVERY_DEVICE = "recovery"


def otp_enabled(*, user: User) -> bool:
    """Whether the account asks for a second factor at sign-in."""
    return bool(user_has_device(user, confirmed=True))


@transaction.atomic
def totp_begin(*, user: User) -> TOTPDevice:
    """A new authenticator key for the account, not in force until a code from it is
    typed (:func:`totp_confirm`); a key begun before and never confirmed is dropped."""
    if otp_enabled(user=user):
        raise ValidationError(_("Two-factor sign-in is already on."))
    TOTPDevice.objects.filter(user=user, confirmed=False).delete()
    return TOTPDevice.objects.create(user=user, name=_("Authenticator app"), confirmed=False)


@transaction.atomic
def totp_confirm(*, user: User, device_id: int, code: str) -> tuple[TOTPDevice, list[str]]:
    """Turn two-factor sign-in on with the key begun, once a code from it is right;
    returns the device and the recovery codes (shown once)."""
    device = (
        TOTPDevice.objects.select_for_update()
        .filter(user=user, pk=device_id, confirmed=False)
        .first()
    )
    if device is None:
        raise ValidationError(_("Start again: this key is no longer waiting."))
    if not device.verify_token(code.strip().replace(" ", "")):
        raise ValidationError({"code": _("The code is not right. Check the time on your phone.")})
    device.confirmed = True
    device.save(update_fields=["confirmed"])
    return device, _recovery_codes_new(user)


def _recovery_codes_new(user: User) -> list[str]:
    static, _created = StaticDevice.objects.get_or_create(
        user=user, name=RECOVERY_DEVICE, defaults={"confirmed": True}
    )
    static.token_set.all().delete()
    codes = [StaticToken.random_token() for _ in range(RECOVERY_CODES)]
    StaticToken.objects.bulk_create(StaticToken(device=static, token=code) for code in codes)
    return codes


@transaction.atomic
def recovery_codes_renew(*, user: User) -> list[str]:
    """New recovery codes; the old ones stop working."""
    if not otp_enabled(user=user):
        raise ValidationError(_("Two-factor sign-in is off."))
    return _recovery_codes_new(user)


def otp_check(*, user: User, code: str) -> Device | None:
    """The device that accepts ``code`` (an authenticator's, once per time step, or a
    recovery code, once), or None."""
    code = code.strip().replace(" ", "")
    if not code or len(code) > 16:
        return None
    with transaction.atomic():
        device: Device | None = match_token(user, code)
    return device


@transaction.atomic
def otp_disable(*, user: User, code: str) -> None:
    """Turn two-factor sign-in off, with a code that proves the factor is at hand."""
    if otp_check(user=user, code=code) is None:
        raise ValidationError({"code": _("The code is not right.")})
    TOTPDevice.objects.filter(user=user).delete()
    StaticDevice.objects.filter(user=user).delete()
