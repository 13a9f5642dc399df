"""The social app's pages (docs/social.md): Friends, "Play me", and the forms that follow,
block and mute from a player's page. Thin: call a service or a selector; a refused request shows the
service's own message and changes nothing."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.limits import client_address
from accounts.types import signed_in
from games.pages.forms import presets_json
from social import errors, selectors, services
from social.forms import ChallengeForm, SocialSettingsForm

ACTIONS = {
    "follow": services.follow_create,
    "unfollow": services.follow_delete,
    "block": services.block_create,
    "unblock": services.block_delete,
    "mute": services.mute_create,
    "unmute": services.mute_delete,
}


def _done(action: str, name: str) -> str:
    """What a follow, block or mute from the pages did, said to the person."""
    texts = {
        "follow": _("You follow %(name)s."),
        "unfollow": _("You no longer follow %(name)s."),
        "block": _(
            "You blocked %(name)s: neither of you sees the other's chat or can challenge "
            "the other, and he cannot take a seat at a table where you sit."
        ),
        "unblock": _("You unblocked %(name)s."),
        "mute": _("You muted %(name)s: you no longer see his chat."),
        "unmute": _("You unmuted %(name)s."),
    }
    return texts[action] % {"name": name}


@login_required
def friends(request: HttpRequest) -> HttpResponse:
    """The Friends list, and the players found by ``?q=`` (part of a user name or a
    display name), each with Follow."""
    user = signed_in(request.user)
    mine = selectors.social_settings(user=user)
    query = request.GET.get("q", "")[:150]
    found = selectors.players_search(user=user, query=query) if query else None
    rows = selectors.friends(user=user)
    return render(
        request,
        "social/friends.html",
        {
            "friends": rows,
            "blocked": selectors.blocked(user=user),
            "settings_form": SocialSettingsForm(
                initial={"challenges": mine.challenges, "presence": mine.presence}
            ),
            "query": query,
            "found": found,
            "following": {f.user_id for f in rows},
            "search_min": selectors.SEARCH_MIN,
        },
    )


@login_required
@require_POST
def social_settings(request: HttpRequest) -> HttpResponse:
    """The Friends page's privacy form: whom he takes challenges from, who sees him
    online; back to Friends."""
    form = SocialSettingsForm(request.POST)
    if form.is_valid():
        services.social_settings_update(
            user=signed_in(request.user),
            challenges=form.cleaned_data["challenges"],
            presence=form.cleaned_data["presence"],
        )
        messages.success(request, _("Your privacy settings have been saved."))
    else:
        messages.error(request, str(errors.Invalid()))
    return redirect("social:friends")


@login_required
@require_POST
def relation(request: HttpRequest, action: str) -> HttpResponse:
    """Follow, unfollow, block, unblock, mute or unmute the player named in the form;
    back to the page it came from (``next``) or to Friends."""
    change = ACTIONS.get(action)
    following = request.POST.get("next") or ""
    if not url_has_allowed_host_and_scheme(following, allowed_hosts={request.get_host()}):
        following = ""
    if change is None:
        messages.error(request, str(errors.Invalid()))
    else:
        try:
            target = services.player_get(username=request.POST.get("username", ""))
            change(user=signed_in(request.user), target=target)
        except errors.SocialError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _done(action, target.get_display_name()))
    return redirect(following or "social:friends")


@login_required
def challenge(request: HttpRequest) -> HttpResponse:
    """ "Play me": the lobby's form with the people invited (``?to=<username>`` fills
    the first); sent, the person stays where the notification area shows it live."""
    user = signed_in(request.user)
    if request.method == "POST":
        form = ChallengeForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                services.challenge_create(
                    user=user,
                    invited=[services.player_get(username=n) for n in form.usernames()],
                    players=data["players"],
                    preset=data["preset"],
                    options=form.options(),
                    move_seconds=data["move_seconds"],
                    rated=data["rated"],
                    bot_level=data["bot_level"],
                    address=client_address(request),
                )
            except errors.SocialError as exc:
                form.add_error(None, exc.message)
            else:
                messages.success(request, _("Challenge sent: waiting for the answers."))
                return redirect("social:friends")
        status = 400
    else:
        form = ChallengeForm(initial={"to1": request.GET.get("to", "")[:150]})
        status = 200
    context = {
        "form": form,
        "presets": presets_json(),
        "minutes": settings.SOCIAL_CHALLENGE_SECONDS // 60,
    }
    return render(request, "social/challenge.html", context, status=status)
