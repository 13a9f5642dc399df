"""The admin site: staff sign in with a second factor (ACCOUNTS_ADMIN_OTP)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from accounts import limits
from accounts.services import otp_check


class AdminSignInForm(AdminAuthenticationForm):
    """The admin's sign-in: the password (with the lockout), then a code from the
    authenticator app or a recovery code."""

    otp_token = forms.CharField(
        label=_("Two-factor code"),
        required=False,
        max_length=16,
        widget=forms.TextInput(attrs={"autocomplete": "one-time-code", "inputmode": "numeric"}),
        help_text=_("From your authenticator app, or one of your recovery codes."),
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        user = self.user_cache
        if not settings.ACCOUNTS_ADMIN_OTP or user is None:
            return cleaned
        device = otp_check(user=user, code=self.cleaned_data.get("otp_token") or "")
        if device is None:
            if self.request is not None:
                limits.signin_failure_record(
                    username=user.get_username(),
                    address=limits.client_address(self.request),
                    device=limits.known_device(self.request, user.get_username()),
                )
            raise forms.ValidationError(
                _(
                    "Enter the code from your authenticator app, or a recovery code. "
                    "Staff turn two-factor sign-in on first, on the site: Profile, "
                    "Two-factor sign-in."
                ),
                code="otp",
            )
        user.otp_device = device  # type: ignore[attr-defined]  # django_otp's login hook
        return cleaned


class AdminSite(admin.AdminSite):
    login_form = AdminSignInForm

    def has_permission(self, request: HttpRequest) -> bool:
        """Staff, and (ACCOUNTS_ADMIN_OTP) signed in with a second factor this session."""
        if not super().has_permission(request):
            return False
        if not settings.ACCOUNTS_ADMIN_OTP:
            return True
        verified = getattr(request.user, "is_verified", None)
        return bool(verified and verified())
