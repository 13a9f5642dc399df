"""Pages of a player's address: change it, confirm it by the mailed link."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts.forms import EmailForm
from accounts.models import User
from accounts.services import email_change_request, email_confirm
from accounts.types import person, signed_in


@login_required
@require_http_methods(["GET", "POST"])
def email_change(request: HttpRequest) -> HttpResponse:
    user = signed_in(request.user)
    form = EmailForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            email_change_request(
                user=User.objects.get(pk=user.pk),
                email=form.cleaned_data["email"],
                base_url=request.build_absolute_uri("/"),
            )
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            messages.success(
                request, _("We sent a link to the new address. Open it to confirm the change.")
            )
            return redirect("accounts:email")
    status = 400 if form.errors else 200
    user = User.objects.get(pk=user.pk)
    return render(request, "accounts/email.html", {"form": form, "account": user}, status=status)


@require_http_methods(["GET", "POST"])
def email_confirm_view(request: HttpRequest, token: str) -> HttpResponse:
    """GET asks (a mail scanner that follows links confirms nothing), POST confirms."""
    if request.method == "GET":
        return render(request, "accounts/email_confirm.html", {"token": token})
    try:
        email_confirm(token=token, visitor=person(request.user))
    except ValidationError as exc:
        return render(
            request, "accounts/link_invalid.html", {"problem": " ".join(exc.messages)}, status=400
        )
    messages.success(request, _("Your address is confirmed."))
    return redirect("accounts:email" if request.user.is_authenticated else "accounts:login")
