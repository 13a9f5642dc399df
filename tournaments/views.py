"""The tournament pages: the list, a tournament (rules, schedule, entrants, standings,
rounds and tables), and the buttons to register, withdraw and check in."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from tournaments import errors, live, selectors, services


def tournament_list(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/list.html", {"lists": selectors.tournament_lists()})


def tournament_detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    t = selectors.tournament_get(tournament_id=tournament_id, user=request.user)
    if t is None:
        raise Http404
    mine = selectors.my_table(t, request.user)
    context = {
        "t": t,
        "me": selectors.user_state(t, request.user),
        "my_place": selectors.my_place(t, request.user),
        "my_table_url": live.table_url(mine.table_id) if mine and mine.table_id else None,
        "rules": selectors.rules_in_words(t),
        "entrants": selectors.entrants(t),
        "standings": selectors.standings(t),
        "rounds": selectors.rounds(t),
    }
    # The page's live parts, fetched again when the websocket says something changed.
    template = (
        "tournaments/_parts.html"
        if request.GET.get("part") == "live"
        else "tournaments/detail.html"
    )
    return render(request, template, context)


def table_panel(request: HttpRequest, table_id: int) -> HttpResponse:
    """The tournament panel of a tournament table's page, fetched again when the
    tournament changes (tournaments/static/tournaments/table_panel.js)."""
    panel = selectors.table_panel(table_id=table_id, user=request.user)
    if panel is None:
        raise Http404
    return render(
        request, "tournaments/_table_panel.html", {"panel": panel, "table_id": table_id}
    )


def _act(request: HttpRequest, tournament_id: int, action: str) -> HttpResponse:
    done = {
        "register": (services.registration_create, selectors.MESSAGES["registered"]),
        "withdraw": (services.registration_withdraw, selectors.MESSAGES["withdrawn"]),
        "check_in": (services.registration_check_in, selectors.MESSAGES["checked_in"]),
    }
    service, message = done[action]
    try:
        service(tournament=tournament_id, user=request.user)
    except errors.NotFound:
        raise Http404 from None
    except errors.TournamentError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, str(message))
    return redirect("tournaments:detail", tournament_id=tournament_id)


@login_required
@require_POST
def register(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _act(request, tournament_id, "register")


@login_required
@require_POST
def withdraw(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _act(request, tournament_id, "withdraw")


@login_required
@require_POST
def check_in(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _act(request, tournament_id, "check_in")
