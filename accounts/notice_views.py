"""Pages of the e-mail notices: which kinds to get, and the unsubscribe link of a mail."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from accounts import selectors
from accounts.forms import NoticesForm
from accounts.models import NoticeKind, User
from accounts.services import notice_unsubscribe, notices_choose
from accounts.types import signed_in


@login_required
@require_http_methods(["GET", "POST"])
def notices(request: HttpRequest) -> HttpResponse:
    """Which kinds of notice the account gets by mail (each one off until chosen)."""
    user = User.objects.get(pk=signed_in(request.user).pk)
    form = NoticesForm(
        request.POST or None, initial={"notices": selectors.notices_chosen(user=user)}
    )
    if request.method == "POST" and form.is_valid():
        try:
            notices_choose(user=user, kinds=form.cleaned_data["notices"])
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            messages.success(request, _("Your choice of mail is saved."))
            return redirect("accounts:notices")
    status = 400 if form.errors else 200
    context = {"form": form, "account": user}
    return render(request, "accounts/notices.html", context, status=status)


@csrf_exempt  # the signed token is the credential; mail providers post without a cookie
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """A notice's unsubscribe link. GET asks (a mail scanner that opens links changes
    nothing); POST turns that kind off: the page's button, or a mail program's one-click
    ``List-Unsubscribe=One-Click`` post (RFC 8058). No sign-in needed."""
    if request.method == "GET":
        return render(request, "accounts/unsubscribe.html", {"token": token})
    try:
        _user, kind = notice_unsubscribe(token=token)
    except ValidationError as exc:
        return render(
            request, "accounts/link_invalid.html", {"problem": " ".join(exc.messages)}, status=400
        )
    context = {"done": True, "kind_label": NoticeKind(kind).label}
    return render(request, "accounts/unsubscribe.html", context)
