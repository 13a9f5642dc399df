"""The clubs app's pages (docs/clubs.md): the list, a club's page, founding a club, the
forms that join, leave, answer requests and make invitation links, and the club's messages
to its members (writing one, reading one, a member's switch to leave them off). Thin: call a service or a
selector; a refused request shows the service's own message and changes nothing."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.types import signed_in
from clubs import errors, selectors, services
from clubs.forms import ClubForm, ClubMessageForm
from clubs.models import Club, Invitation, JoinRequest, Membership, Season


def _club(slug: str) -> Club:
    club = selectors.club_by_slug(slug)
    if club is None:
        raise Http404
    return club


def club_list(request: HttpRequest) -> HttpResponse:
    return render(request, "clubs/list.html", {"clubs": selectors.club_list()[:200]})


def club_detail(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club(slug)
    context: dict[str, Any] = selectors.club_page(club=club, viewer=request.user)
    if context["rights"]["members"]:
        context["join_requests"] = list(selectors.join_requests(club=club))
        context["invitations"] = list(selectors.invitations(club=club))
    if context["rights"]["messages"]:
        context["message_form"] = ClubMessageForm()
    return render(request, "clubs/detail.html", context)


@login_required
def club_new(request: HttpRequest) -> HttpResponse:
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            club = services.club_create(user=signed_in(request.user), **form.cleaned_data)
        except errors.ClubError as exc:
            form.add_error(None, exc.message)
        else:
            return redirect("clubs:detail", club.slug)
    return render(request, "clubs/new.html", {"form": form})


@login_required
@require_POST
def club_action(request: HttpRequest, slug: str, action: str) -> HttpResponse:
    """join, leave, turn the club's messages off or on, invite, accept/decline a request,
    revoke an invitation."""
    club = _club(slug)
    user = signed_in(request.user)
    try:
        if action == "join":
            result = services.club_join(
                user=user, club=club, message=request.POST.get("message", "")
            )
            done = (
                _("Welcome to the club.")
                if isinstance(result, Membership)
                else _("Your request was sent to the club's organisers.")
            )
        elif action == "leave":
            services.club_leave(user=user, club=club)
            done = _("You left the club.")
        elif action in ("messages-off", "messages-on"):
            services.member_set_messages(user=user, club=club, off=action == "messages-off")
            done = (
                _("The club's messages no longer reach your notifications.")
                if action == "messages-off"
                else _("The club's messages reach your notifications again.")
            )
        elif action == "invite":
            services.invitation_create(user=user, club=club)
            done = _("A new invitation link is ready.")
        elif action in ("accept", "decline"):
            join_request = JoinRequest.objects.filter(
                pk=request.POST.get("request", "0") or 0, club=club
            ).first()
            if join_request is None:
                raise Http404
            services.join_request_answer(
                user=user, join_request=join_request, accept=action == "accept"
            )
            done = _("Answered.")
        elif action == "revoke":
            invitation = Invitation.objects.filter(
                pk=request.POST.get("invitation", "0") or 0, club=club
            ).first()
            if invitation is None:
                raise Http404
            services.invitation_revoke(user=user, invitation=invitation)
            done = _("The invitation link no longer works.")
        else:
            raise Http404
    except errors.ClubError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, done)
    return redirect("clubs:detail", club.slug)


@login_required
def invitation(request: HttpRequest, token: str) -> HttpResponse:
    """An invitation link: the club it invites to, and a button that joins."""
    found = Invitation.objects.select_related("club").filter(token=token).first()
    if found is None or not found.is_valid():
        return render(request, "clubs/invitation.html", {"invitation": None}, status=404)
    if request.method == "POST":
        try:
            services.invitation_accept(user=signed_in(request.user), token=token)
        except errors.ClubError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("Welcome to the club."))
        return redirect("clubs:detail", found.club.slug)
    return render(request, "clubs/invitation.html", {"invitation": found})


def season(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    found = Season.objects.select_related("club").filter(pk=season_id, club__slug=slug).first()
    if found is None:
        raise Http404
    table = selectors.season_rows(season=found)
    return render(request, "clubs/season.html", {"season": found, "club": found.club, **table})


def season_csv(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    found = Season.objects.select_related("club").filter(pk=season_id, club__slug=slug).first()
    if found is None:
        raise Http404
    response = HttpResponse(
        selectors.season_csv(season=found), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{slug}-season-{found.pk}.csv"'
    return response


@login_required
def club_message_new(request: HttpRequest, slug: str) -> HttpResponse:
    """Write to every member (the messages right); a refused message keeps its words in the
    form, with the service's reason, and nothing is sent."""
    club = _club(slug)
    user = signed_in(request.user)
    if not selectors.can(user=user, club=club, right="messages"):
        raise PermissionDenied
    form = ClubMessageForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.club_message_send(club=club, sender=user, **form.cleaned_data)
        except errors.ClubError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Your message was sent to the members."))
            return redirect("clubs:detail", club.slug)
    status = 400 if form.errors else 200
    return render(request, "clubs/message_new.html", {"club": club, "form": form}, status=status)


def club_message(request: HttpRequest, slug: str, message_id: int) -> HttpResponse:
    """One of the club's messages, for its members (nobody else learns that it exists)."""
    club = _club(slug)
    found = selectors.message_for(club=club, message_id=message_id, viewer=request.user)
    if found is None:
        raise Http404
    return render(request, "clubs/message.html", {"club": club, "club_message": found})
