"""Pages of what the account is: where it is signed in, its data, closing it."""

from __future__ import annotations

import json

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods
from rest_framework.authtoken.models import Token

from accounts import selectors
from accounts.models import User
from accounts.services import (
    account_close,
    account_data_export,
    signin_revoke,
    signins_revoke,
    token_revoke,
)
from accounts.types import signed_in


@login_required
@require_http_methods(["GET", "POST"])
def sessions(request: HttpRequest) -> HttpResponse:
    """Where the account is signed in: sign one browser out, all the others, or revoke
    the API token."""
    user = signed_in(request.user)
    current = request.session.session_key
    action = request.POST.get("action", "")
    if action == "one":
        signin_revoke(user=user, signin_id=int(request.POST.get("signin") or 0))
        messages.success(request, _("That browser is signed out."))
        return redirect("accounts:sessions")
    if action == "others":
        count = signins_revoke(user=user, keep_session_key=current)
        messages.success(request, _("Signed out everywhere else (%(count)d).") % {"count": count})
        return redirect("accounts:sessions")
    if action == "token":
        token_revoke(user=user)
        messages.success(request, _("Your API token is revoked."))
        return redirect("accounts:sessions")
    rows = [
        {
            "signin": s,
            "device": selectors.device_label(s.user_agent),
            "here": s.session_key == current,
        }
        for s in selectors.signins_of(user=user)
    ]
    has_token = Token.objects.filter(user=user).exists()
    return render(request, "accounts/sessions.html", {"rows": rows, "has_token": has_token})


@login_required
def data_download(request: HttpRequest) -> HttpResponse:
    """Everything the service holds about the person, as a JSON file."""
    user = User.objects.get(pk=signed_in(request.user).pk)
    body = json.dumps(
        account_data_export(user=user), cls=DjangoJSONEncoder, indent=2, ensure_ascii=False
    )
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="thousand-{user.pk}.json"'
    return response


class CloseForm(forms.Form):
    password = forms.CharField(label=gettext_lazy("Password"), widget=forms.PasswordInput)


@login_required
@require_http_methods(["GET", "POST"])
def close(request: HttpRequest) -> HttpResponse:
    form = CloseForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            account_close(
                user=User.objects.get(pk=signed_in(request.user).pk),
                password=form.cleaned_data["password"],
            )
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            logout(request)
            messages.success(request, _("Your account is closed."))
            return redirect("home")
    status = 400 if form.errors else 200
    days = max(1, settings.ACCOUNTS_CLOSE_GRACE_SECONDS // 86400)
    context = {"form": form, "grace_days": days}
    return render(request, "accounts/close.html", context, status=status)
