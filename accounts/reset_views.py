"""A forgotten password: ask for a link by address, then choose a new password."""

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from accounts import limits
from accounts.services import password_reset_request, user_password_reset


class ResetForm(forms.Form):
    email = forms.CharField(label=gettext_lazy("E-mail address"), max_length=254)


@require_http_methods(["GET", "POST"])
def password_reset(request: HttpRequest) -> HttpResponse:
    form = ResetForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        password_reset_request(
            email=form.cleaned_data["email"],
            address=limits.client_address(request),
            base_url=request.build_absolute_uri("/"),
        )
        return redirect("accounts:password_reset_sent")
    status = 400 if form.errors else 200
    return render(request, "accounts/password_reset.html", {"form": form}, status=status)


def password_reset_sent(request: HttpRequest) -> HttpResponse:
    return render(request, "accounts/password_reset_sent.html")


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """Django's page for the link (it checks the token, and shows a clear page for a
    used, expired or tampered one); the new password is set by the service, which signs
    the account out everywhere."""

    template_name = "accounts/password_reset_confirm.html"
    success_url = reverse_lazy("accounts:login")

    def form_valid(self, form: Any) -> HttpResponse:
        assert self.user is not None
        try:
            user_password_reset(user=self.user, new_password=form.cleaned_data["new_password1"])
        except ValidationError as exc:
            form.add_error(None, exc)
            return self.form_invalid(form)
        del self.request.session[auth_views.INTERNAL_RESET_SESSION_TOKEN]
        messages.success(
            self.request, _("Your password has been changed. Sign in with the new one.")
        )
        return redirect(self.success_url)
