"""Two-factor sign-in pages: turn it on or off, recovery codes, and the code asked at
sign-in after the password."""

from __future__ import annotations

import base64
import time
from typing import Any

import django_otp
import segno
from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from accounts import limits
from accounts.forms import SignInForm
from accounts.models import User
from accounts.services import (
    otp_check,
    otp_disable,
    otp_enabled,
    recovery_codes_renew,
    totp_begin,
    totp_confirm,
)
from accounts.types import signed_in

PENDING_KEY = "_signin_second_factor"
PENDING_SECONDS = 300


class CodeForm(forms.Form):
    code = forms.CharField(
        label=gettext_lazy("Code"),
        max_length=16,
        widget=forms.TextInput(attrs={"autocomplete": "one-time-code", "autofocus": True}),
        help_text=gettext_lazy("Six digits from your authenticator app, or a recovery code."),
    )


def safe_next(request: HttpRequest, url: str) -> str:
    """``url`` if it stays on this site, else the default page after sign-in."""
    if url and url_has_allowed_host_and_scheme(
        url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return url
    return str(settings.LOGIN_REDIRECT_URL)


class SignInView(auth_views.LoginView):
    """The password first (Django's view, with the lockout); an account with two-factor
    sign-in on is then asked for a code (:func:`signin_code`) before it is signed in."""

    template_name = "accounts/login.html"
    redirect_authenticated_user = True
    authentication_form = SignInForm

    def form_valid(self, form: Any) -> HttpResponse:
        user = form.get_user()
        if not otp_enabled(user=user):
            return super().form_valid(form)
        self.request.session[PENDING_KEY] = {
            "user": user.pk,
            "backend": user.backend,
            "at": time.time(),
            "next": self.get_success_url(),
        }
        return redirect("accounts:login_code")


@require_http_methods(["GET", "POST"])
def signin_code(request: HttpRequest) -> HttpResponse:
    pending = request.session.get(PENDING_KEY)
    if not isinstance(pending, dict) or time.time() - pending.get("at", 0) > PENDING_SECONDS:
        request.session.pop(PENDING_KEY, None)
        return redirect("accounts:login")
    user = User.objects.filter(pk=pending["user"], is_active=True).first()
    if user is None:
        return redirect("accounts:login")
    form = CodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        username = user.get_username()
        wait = limits.signin_wait(request, username)
        device = None if wait is not None else otp_check(user=user, code=form.cleaned_data["code"])
        if wait is not None:
            form.add_error(None, limits.locked_message(wait))
        elif device is None:
            limits.signin_failure_record(
                username=username,
                address=limits.client_address(request),
                device=limits.known_device(request, username),
            )
            form.add_error("code", _("The code is not right."))
        else:
            del request.session[PENDING_KEY]
            user.otp_device = device  # type: ignore[attr-defined]  # django_otp's login hook
            login(request, user, backend=pending["backend"])
            return redirect(safe_next(request, str(pending.get("next") or "")))
    status = 400 if form.errors else 200
    return render(request, "accounts/login_code.html", {"form": form}, status=status)


def _key_for_apps(device: Any) -> str:
    return base64.b32encode(device.bin_key).decode()


def _setup(device: Any) -> dict[str, Any]:
    """What the set-up page shows of a new key: the key in letters, its ``otpauth://``
    address, and that address as a QR code (inline SVG, made here: nothing leaves the
    server)."""
    url = device.config_url
    qr = segno.make(url, error="m").svg_inline(
        scale=4, border=2, omitsize=True, svgclass="otp-qr", title=str(_("QR code of the key"))
    )
    return {"device": device, "key": _key_for_apps(device), "url": url, "qr": _svg(qr)}


def _svg(markup: str) -> SafeString:
    return mark_safe(markup)


@login_required
@require_http_methods(["GET", "POST"])
def two_factor(request: HttpRequest) -> HttpResponse:
    """The account's two-factor sign-in: turn on (a key, then a code from it), new
    recovery codes, turn off."""
    user = User.objects.get(pk=signed_in(request.user).pk)
    action = request.POST.get("action", "")
    form = CodeForm(request.POST if action in {"confirm", "disable"} else None)
    context: dict[str, Any] = {"enabled": otp_enabled(user=user), "form": form}
    try:
        if action == "begin":
            context.update(_setup(totp_begin(user=user)))
        elif action == "confirm" and form.is_valid():
            device_id = int(request.POST.get("device") or 0)
            device, codes = totp_confirm(
                user=user, device_id=device_id, code=form.cleaned_data["code"]
            )
            django_otp.login(request, device)
            return render(request, "accounts/recovery_codes.html", {"codes": codes})
        elif action == "renew":
            codes = recovery_codes_renew(user=user)
            return render(request, "accounts/recovery_codes.html", {"codes": codes})
        elif action == "disable" and form.is_valid():
            otp_disable(user=user, code=form.cleaned_data["code"])
            messages.success(request, _("Two-factor sign-in is off."))
            return redirect("accounts:two_factor")
    except ValidationError as exc:
        form.add_error(None, exc)
        if action == "confirm":
            from django_otp.plugins.otp_totp.models import TOTPDevice

            device = TOTPDevice.objects.filter(user=user, confirmed=False).first()
            if device is not None:
                context.update(_setup(device))
    status = 400 if form.errors else 200
    return render(request, "accounts/two_factor.html", context, status=status)
