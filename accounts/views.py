import contextlib
import math

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout, update_session_auth_hash
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import PasswordChangeForm
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views import i18n
from django.views.decorators.http import require_http_methods

from accounts import limits
from accounts.forms import ProfileForm, SignUpForm
from accounts.models import User
from accounts.services import (
    user_create,
    user_language_update,
    user_password_change,
    user_profile_update,
)


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("accounts:profile")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and (wait := limits.signup_allowed(request)) is not None:
        # The same count per address as POST /api/v1/auth/signup/ (accounts/limits.py).
        minutes = max(1, math.ceil(wait / 60))
        form.add_error(
            None,
            ngettext(
                "Too many sign-ups from your address. Try again in %(minutes)d minute.",
                "Too many sign-ups from your address. Try again in %(minutes)d minutes.",
                minutes,
            )
            % {"minutes": minutes},
        )
        return render(request, "accounts/signup.html", {"form": form}, status=429)
    if request.method == "POST" and form.is_valid():
        try:
            user = user_create(
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password1"],
                display_name=form.cleaned_data.get("display_name", ""),
                email=form.cleaned_data.get("email", ""),
                base_url=request.build_absolute_uri("/"),
            )
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, _("Welcome, %(name)s!") % {"name": user.get_display_name()})
            return redirect("home")
    status = 400 if form.errors else 200
    return render(request, "accounts/signup.html", {"form": form}, status=status)


@require_http_methods(["GET", "POST"])
def logout_view(request: HttpRequest) -> HttpResponse:
    """GET asks (a link can't sign anyone out), POST signs out and says so."""
    if request.method == "GET":
        return render(request, "accounts/logout.html")
    language = getattr(request.user, "preferred_language", "")
    was_signed_in = request.user.is_authenticated
    logout(request)
    if was_signed_in:
        messages.success(request, _("You have been signed out."))
    response = redirect(settings.LOGOUT_REDIRECT_URL)
    if language:
        # The site goes on in the language the player had chosen.
        response.set_cookie(settings.LANGUAGE_COOKIE_NAME, language)
    return response


def set_language(request: HttpRequest) -> HttpResponse:
    """The header's language menu. For a signed-in player the choice becomes the
    preferred language, which would otherwise win over it on the next page."""
    response = i18n.set_language(request)
    language = request.POST.get(i18n.LANGUAGE_QUERY_PARAMETER, "")
    user = request.user
    if request.method == "POST" and isinstance(user, User) and language:
        # An unknown language: Django ignored it, and so does the preference.
        with contextlib.suppress(ValidationError):
            user_language_update(user=user, language=language)
    return response


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    user = request.user
    assert isinstance(user, User)
    # The form validates a copy, so a rejected edit leaves request.user untouched.
    form = ProfileForm(request.POST or None, instance=User.objects.get(pk=user.pk))
    if request.method == "POST" and form.is_valid():
        try:
            user_profile_update(
                user=user,
                display_name=form.cleaned_data["display_name"],
                country=form.cleaned_data["country"],
                preferred_language=form.cleaned_data["preferred_language"],
                time_zone=form.cleaned_data["time_zone"],
            )
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            # Say it in the language just chosen, which this request did not start in.
            with translation.override(user.preferred_language or translation.get_language()):
                messages.success(request, _("Your profile has been saved."))
            return redirect("accounts:profile")
    status = 400 if form.errors else 200
    return render(request, "accounts/profile.html", {"form": form}, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def password_change(request: HttpRequest) -> HttpResponse:
    """Change the password (the old one first); the API token is revoked with it, and
    this browser stays signed in."""
    user = request.user
    assert isinstance(user, User)
    form = PasswordChangeForm(user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user_password_change(
                user=User.objects.get(pk=user.pk),
                old_password=form.cleaned_data["old_password"],
                new_password=form.cleaned_data["new_password1"],
            )
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            update_session_auth_hash(request, User.objects.get(pk=user.pk))
            messages.success(
                request, _("Your password has been changed. Your API token was revoked.")
            )
            return redirect("accounts:profile")
    status = 400 if form.errors else 200
    return render(request, "accounts/password_change.html", {"form": form}, status=status)
