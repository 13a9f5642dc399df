"""The tournament pages: the list, a tournament (rules, schedule, entrants, standings,
rounds and tables), and the buttons to register, withdraw and check in."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.timezones import zone_of
from accounts.types import signed_in
from tournaments import errors, live, notices, selectors, services
from tournaments.selectors import duplicate as duplicate_selectors


def tournament_list(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/list.html", {"lists": selectors.tournament_lists()})


def tournament_detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = selectors.tournament_get(tournament_id=tournament_id, user=request.user)
    if tournament is None:
        raise Http404
    mine = selectors.my_table(tournament, request.user)
    context = {
        "t": tournament,
        "me": selectors.user_state(tournament, request.user),
        "my_place": selectors.my_place(tournament, request.user),
        "my_table_url": live.table_url(mine.table_id) if mine and mine.table_id else None,
        "rules": selectors.rules_in_words(tournament),
        "entrants": selectors.entrants(tournament),
        "standings": selectors.standings(tournament=tournament),
        "rounds": selectors.rounds(tournament=tournament, user=request.user),
        "announcements": selectors.announcements(tournament),
        "dealing": duplicate_selectors.open_dealing(tournament, request.user),
        "ahead": duplicate_selectors.movement_ahead(tournament, request.user),
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
    return render(request, "tournaments/_table_panel.html", {"panel": panel, "table_id": table_id})


def _act(request: HttpRequest, tournament_id: int, action: str) -> HttpResponse:
    done = {
        "register": (services.registration_create, selectors.MESSAGES["registered"]),
        "withdraw": (services.registration_withdraw, selectors.MESSAGES["withdrawn"]),
        "check_in": (services.registration_check_in, selectors.MESSAGES["checked_in"]),
    }
    service, message = done[action]
    user = signed_in(request.user)
    try:
        reg = service(tournament=tournament_id, user=user)
    except errors.NotFound:
        raise Http404 from None
    except errors.TournamentError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, str(message))
        if action == "register":
            warning = selectors.overlap_warning(tournament=reg.tournament, user=user)
            if warning:
                messages.warning(request, warning)
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


@login_required
@require_POST
def give_seed(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """An entrant's own seed for the next duplicate round (docs/fair-dealing.md)."""
    tournament = _visible_or_404(request, tournament_id)
    try:
        services.entrant_seed_give(
            tournament=tournament, user=signed_in(request.user), seed=request.POST.get("seed", "")
        )
    except errors.TournamentError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Your seed is in: it is mixed into the round's deals."))
    return redirect("tournaments:detail", tournament_id=tournament_id)


# -- printable sheets and exports ------------------------------------------------------


def _visible_or_404(request: HttpRequest, tournament_id: int) -> Any:
    tournament = selectors.tournament_get(tournament_id=tournament_id, user=request.user)
    if tournament is None:
        raise Http404
    return tournament


def _event_zone(tournament: Any) -> Any:
    """The zone a printed page gives its times in: the organiser's (the room the sheet is
    pinned up in), whoever prints it; the site's when he chose none."""
    return zone_of(tournament.created_by) or timezone.get_default_timezone()


def round_sheet(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """A printable page of one round: its tables, seats, players and start time, in the
    event's zone (:func:`_event_zone`)."""
    tournament = _visible_or_404(request, tournament_id)
    sheet = selectors.round_sheet(tournament, number)
    if sheet is None:
        raise Http404
    with timezone.override(_event_zone(tournament)):
        return render(request, "tournaments/round_sheet.html", {"t": tournament, "r": sheet})


def round_boards(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """A duplicate round's boards once the round is over: every table's result of each
    board side by side, with matchpoints against everyone who held the same cards."""
    tournament = _visible_or_404(request, tournament_id)
    boards = duplicate_selectors.round_boards(tournament, number, request.user)
    if boards is None:
        raise Http404
    return render(request, "tournaments/round_boards.html", {"t": tournament, "r": boards})


def standings_print(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """A printable page of the standings (final once the event is finished)."""
    tournament = _visible_or_404(request, tournament_id)
    with timezone.override(_event_zone(tournament)):
        return render(
            request,
            "tournaments/standings_print.html",
            {"t": tournament, "standings": selectors.standings(tournament=tournament)},
        )


def _csv(name: str, text: str) -> HttpResponse:
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def standings_csv(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _visible_or_404(request, tournament_id)
    text = selectors.csv_text(
        selectors.STANDINGS_COLUMNS, selectors.standings_rows(tournament=tournament)
    )
    return _csv(f"tournament-{tournament.pk}-standings.csv", text)


def results_csv(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _visible_or_404(request, tournament_id)
    text = selectors.csv_text(
        selectors.RESULTS_COLUMNS, selectors.result_rows(tournament=tournament)
    )
    return _csv(f"tournament-{tournament.pk}-results.csv", text)


# -- the notification area of the site header -------------------------------------------


def notifications(request: HttpRequest) -> HttpResponse:
    """The header's notification area (fetched again when a tournament changes)."""
    area = selectors.notification_area(user=request.user)
    return render(request, "tournaments/_notifications.html", {"area": area})


@login_required
@require_POST
def notifications_read(request: HttpRequest) -> HttpResponse:
    notices.notifications_mark_read(user=signed_in(request.user))
    if request.headers.get("x-requested-with") == "fetch":
        return HttpResponse(status=204)
    from django.utils.http import url_has_allowed_host_and_scheme

    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        target = ""
    return redirect(target or "tournaments")
