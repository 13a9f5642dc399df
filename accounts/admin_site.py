"""The admin site: whoever it lets in (staff, and whom higher apps add: a club's
organisers) has a confirmed address and signed in with a second factor
(ACCOUNTS_ADMIN_OTP); its sign-in asks for the code."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from accounts import limits
from accounts.services import otp_check, otp_enabled

Entry = Callable[[HttpRequest], bool]
# Set on a request while the site asks only whom it lets in (AdminSite.may_enter).
PROBE = "_admin_entry_probe"


class AdminSignInForm(AdminAuthenticationForm):
    """The admin's sign-in: the password (with the lockout), then a code from the
    authenticator app or a recovery code. Any active account may sign in here; the
    site then decides whether it may enter (:meth:`AdminSite.has_permission`)."""

    otp_token = forms.CharField(
        label=_("Two-factor code"),
        required=False,
        max_length=16,
        widget=forms.TextInput(attrs={"autocomplete": "one-time-code", "inputmode": "numeric"}),
        help_text=_("From your authenticator app, or one of your recovery codes."),
    )

    def confirm_login_allowed(self, user: Any) -> None:
        # Not only staff: a club's organiser enters the admin too (the site says who).
        if not user.is_active:
            raise forms.ValidationError(self.error_messages["inactive"], code="inactive")

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
                    "Turn two-factor sign-in on first, on the site: Profile, "
                    "Two-factor sign-in."
                ),
                code="otp",
            )
        user.otp_device = device  # type: ignore[attr-defined]  # django_otp's login hook
        return cleaned


def entry_missing(request: HttpRequest) -> list[str]:
    """What the signed-in person still lacks to use the admin (ACCOUNTS_ADMIN_OTP):
    ``"email"`` (no confirmed address), ``"two_factor"`` (two-factor sign-in off),
    ``"code"`` (on, but this session was signed in without a code)."""
    user = request.user
    if not settings.ACCOUNTS_ADMIN_OTP or not user.is_authenticated:
        return []
    missing = []
    if not getattr(user, "email", ""):
        missing.append("email")
    if not otp_enabled(user=user):
        missing.append("two_factor")
    else:
        verified = getattr(user, "is_verified", None)
        if not (verified and verified()):
            missing.append("code")
    return missing


class AdminSite(admin.AdminSite):
    """Who may enter is ``has_permission``: staff, widened by higher apps, which assign
    their own function to it (clubs lets a club's organisers in that way). Whatever is
    assigned, reading ``has_permission`` gives it with the site's own conditions added:
    a confirmed address and a second factor in this session (:func:`entry_missing`)."""

    login_form = AdminSignInForm
    login_template = "accounts/admin_login.html"

    def __init__(self, name: str = "admin") -> None:
        super().__init__(name)
        self._entry: Entry = self._staff

    def _staff(self, request: HttpRequest) -> bool:
        return admin.AdminSite.has_permission(self, request)

    @property
    def has_permission(self) -> Entry:
        entry = self._entry

        def has_permission(request: HttpRequest) -> bool:
            if not entry(request):
                return False
            return getattr(request, PROBE, False) or not entry_missing(request)

        return has_permission

    @has_permission.setter
    def has_permission(self, entry: Entry) -> None:
        self._entry = entry

    def may_enter(self, request: HttpRequest) -> bool:
        """Whether the person is one the admin lets in, whatever he still lacks (a
        function assigned may call the one it replaced: the conditions wait meanwhile)."""
        setattr(request, PROBE, True)
        try:
            return self._entry(request)
        finally:
            delattr(request, PROBE)

    def login(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        missing = entry_missing(request) if self.may_enter(request) else []
        context = {
            **(extra_context or {}),
            "entry_missing": missing,
            "email_url": reverse("accounts:email"),
            "two_factor_url": reverse("accounts:two_factor"),
        }
        return super().login(request, extra_context=context)
