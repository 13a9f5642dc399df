"""The game pages: the lobby (/play/), a table (/tables/<id>/) and my matches (the replay:
games/replay_views.py).

Thin: they read through ``games.selectors`` (and ``games.pages.selectors``) and change
things only through ``games.services``; a refused request shows the service's own error
message and changes nothing. Game actions never come here: the table page sends them over
the websocket (docs/protocol.md).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.limits import client_address
from accounts.types import Visitor, signed_in
from games import errors, placing, selectors, services
from games.models import MatchResult, Table
from games.pages.cards import card_sprite_url
from games.pages.duplicate import duplicate_words, in_boards
from games.pages.forms import BotForm, CreateTableForm, PracticeForm, presets_json
from games.pages.options import (
    BOT_LEVEL_HELP,
    BOT_LEVEL_LABELS,
    BOT_LEVEL_WORDS,
    all_lines,
    differences,
    preset_label,
    preset_title,
    seat_label,
)
from games.pages.selectors import bot_took_over_from
from games.pages.strings import table_strings

LOBBY_POLL_SECONDS = 5
LOBBY_PAGE_SIZE = 30
LOBBY_MAX_PAGE = 1000


# -- the lobby ---------------------------------------------------------------------------


def _table_card(table: Table, user: Visitor) -> dict[str, Any]:
    """What the lobby shows of one table."""
    seats = {s.number: s for s in table.seats.all()}
    # A bot's seat holds no user, nor does an anonymous visitor: no match (None == None).
    mine = user.is_authenticated and any(s.user_id == user.pk for s in seats.values())
    return {
        "table": table,
        "preset": preset_label(table.preset),
        "differences": differences(table.preset, table.options),
        "seats": [seat_label(seats[n]) if n in seats else None for n in range(table.players)],
        "free": table.players - len(seats),
        "mine": mine,
        "creator": table.created_by_id == getattr(user, "pk", None),
    }


def _lobby_page(request: HttpRequest) -> int:
    try:
        return min(max(int(request.GET.get("page", 1)), 1), LOBBY_MAX_PAGE)
    except ValueError:
        return 1


def _lobby_context(request: HttpRequest) -> dict[str, Any]:
    """One page of open tables (a page and one more row: no count of them all) and the
    visitor's own live tables: the same few queries whatever the number of tables."""
    user = request.user
    page = _lobby_page(request)
    start = (page - 1) * LOBBY_PAGE_SIZE
    rows = list(selectors.table_list_open()[start : start + LOBBY_PAGE_SIZE + 1])
    tables = [_table_card(t, user) for t in rows[:LOBBY_PAGE_SIZE]]
    mine: list[Table] = []
    if user.is_authenticated:
        live = selectors.table_list_for_user(user=user).filter(
            status__in=(Table.Status.OPEN, Table.Status.PLAYING)
        )
        mine = list(live[:LOBBY_PAGE_SIZE])
    return {
        "tables": tables,
        "my_tables": mine,
        "bot_form": PracticeForm(),
        # Each level under the word its menu names it by, every level the menu offers.
        "bot_levels": [
            {"name": capfirst(str(BOT_LEVEL_WORDS[level])), "help": BOT_LEVEL_HELP[level]}
            for level in BOT_LEVEL_LABELS
        ],
        "page": page,
        "newer_page": page - 1 if page > 1 else None,
        "older_page": page + 1 if len(rows) > LOBBY_PAGE_SIZE else None,
    }


def play(request: HttpRequest) -> HttpResponse:
    """The lobby: open tables, your running tables, "play against bots now", a new table."""
    context = _lobby_context(request)
    context.update(
        form=CreateTableForm(),
        presets=presets_json(),
        poll_seconds=LOBBY_POLL_SECONDS,
    )
    return render(request, "games/lobby.html", context)


@require_GET
def lobby_tables(request: HttpRequest) -> HttpResponse:
    """The lobby's table list alone, for the page to refresh it in place."""
    return render(request, "games/_table_list.html", _lobby_context(request))


def _fail(request: HttpRequest, exc: errors.TableError) -> None:
    messages.error(request, exc.message)


def _refusal_shown(
    on_error: str = "table",
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """A form's POST to a table service: a refusal (``TableError``) is shown as a message
    on the table's page (``on_error="table"``) or the lobby's, and changes nothing."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @functools.wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            try:
                return view(request, *args, **kwargs)
            except errors.TableError as exc:
                _fail(request, exc)
                if on_error == "lobby":
                    return redirect("games:lobby")
                return redirect("games:table", table_id=kwargs["table_id"])

        return wrapped

    return decorate


@login_required
@require_POST
def table_create(request: HttpRequest) -> HttpResponse:
    form = CreateTableForm(request.POST)
    # A refused form comes back as 400 with its errors shown in the page (as the sign-up
    # and profile forms do): the status says to scripts and tests that nothing was made;
    # the browser's console notes the 400 as a failed resource, which the player never sees.
    if not form.is_valid():
        context = _lobby_context(request)
        context.update(form=form, presets=presets_json(), poll_seconds=LOBBY_POLL_SECONDS)
        return render(request, "games/lobby.html", context, status=400)
    data = form.cleaned_data
    try:
        table = services.table_open(
            user=signed_in(request.user),
            players=data["players"],
            preset=data["preset"],
            options=form.options(),
            rated=data["rated"],
            private=data["private"],
            move_seconds=data["move_seconds"],
            chat=not data["chat_off"],
        )
    except errors.TableError as exc:
        form.add_error(None, exc.message)
        context = _lobby_context(request)
        context.update(form=form, presets=presets_json(), poll_seconds=LOBBY_POLL_SECONDS)
        return render(request, "games/lobby.html", context, status=400)
    return redirect("games:table", table_id=table.pk)


@login_required
@require_POST
@_refusal_shown(on_error="lobby")
def play_bots(request: HttpRequest) -> HttpResponse:
    """ "Play against bots now": you and two bots, started at once."""
    form = PracticeForm(request.POST)
    valid = form.is_valid()
    level = form.cleaned_data["level"] if valid else "basic"
    deals = form.cleaned_data["deals"] if valid else None
    table = services.table_play_bots(
        user=signed_in(request.user),
        level=level,
        deals=deals,
        address=client_address(request),
    )
    return redirect("games:table", table_id=table.pk)


def _back(request: HttpRequest, table_id: int) -> HttpResponse:
    target = request.POST.get("next") or ""
    if target == "lobby":
        return redirect("games:lobby")
    return redirect("games:table", table_id=table_id)


@login_required
@require_POST
@_refusal_shown()
def table_join(request: HttpRequest, table_id: int) -> HttpResponse:
    services.table_join(
        table=table_id, user=signed_in(request.user), invite_code=request.POST.get("invite") or None
    )
    return redirect("games:table", table_id=table_id)


@login_required
@require_POST
@_refusal_shown()
def table_leave(request: HttpRequest, table_id: int) -> HttpResponse:
    services.table_leave(table=table_id, user=signed_in(request.user))
    return redirect("games:lobby")


@login_required
@require_POST
def table_add_bot(request: HttpRequest, table_id: int) -> HttpResponse:
    form = BotForm(request.POST)
    if form.is_valid():
        try:
            services.seat_fill_with_bot(
                table=table_id, level=form.cleaned_data["level"], by=signed_in(request.user)
            )
        except errors.TableError as exc:
            _fail(request, exc)
    return _back(request, table_id)


@login_required
@require_POST
@_refusal_shown()
def table_start(request: HttpRequest, table_id: int) -> HttpResponse:
    services.table_start(
        table=table_id, user=signed_in(request.user), address=client_address(request)
    )
    return redirect("games:table", table_id=table_id)


@login_required
@require_POST
@_refusal_shown()
def table_resign(request: HttpRequest, table_id: int) -> HttpResponse:
    services.table_resign(table=table_id, user=signed_in(request.user))
    return redirect("games:table", table_id=table_id)


@login_required
@require_POST
@_refusal_shown()
def table_rematch(request: HttpRequest, table_id: int) -> HttpResponse:
    """ "Play again" after a match: the rematch table (opened, or joined if another player
    of the match opened it first)."""
    rematch = services.table_rematch(
        table=table_id, user=signed_in(request.user), address=client_address(request)
    )
    return redirect("games:table", table_id=rematch.pk)


def _rematch_offer(table: Table, user: Visitor) -> dict[str, Any] | None:
    """What the end of the match offers this visitor: "Play again", "Join the rematch" —
    or nothing (he did not play it, or it is a tournament's or a duplicate round's)."""
    if not user.is_authenticated or table.status not in (
        Table.Status.PLAYING,
        Table.Status.FINISHED,
    ):
        return None
    try:
        selectors.rematch_check(table=table, user=signed_in(user), ended=False)
    except errors.TableError:
        return None
    rematch = table.rematch
    if rematch is not None and (
        rematch.status != Table.Status.OPEN or rematch.seats.filter(user_id=user.pk).exists()
    ):
        return {"label": _("Go to the rematch"), "url": reverse("games:table", args=[rematch.pk])}
    label = _("Join the rematch") if rematch is not None else _("Play again")
    return {"label": label, "url": None}


# -- a table -----------------------------------------------------------------------------


def closed_or_404(request: HttpRequest, table: Table) -> HttpResponse:
    """A duplicate round's table closed to this visitor until the round is over says so
    and when it opens (403), rather than "page not found"; anything else is a 404."""
    if selectors.boards_secret(table):
        return render(request, "games/boards_secret.html", {"table": table}, status=403)
    raise Http404


def table_or_404(table_id: int) -> Table:
    try:
        return selectors.table_get(table_id=table_id)
    except errors.TableNotFound:
        raise Http404 from None


def table(request: HttpRequest, table_id: int) -> HttpResponse:
    """The live table. Before the match: its seats, join, bots, start. Then the game,
    drawn by static/js/table.js from the websocket's messages."""
    table = table_or_404(table_id)
    invite = request.GET.get("invite")
    user = request.user
    if not selectors.may_watch(table=table, user=user, invite_code=invite):
        return closed_or_404(request, table)
    seat = selectors.seat_of(table_id=table.pk, user=user)
    seats = list(table.seats.select_related("user"))
    by_number = {s.number: s for s in seats}
    # Encoded: "x&token=…" must stay one value, not a second parameter.
    ws_path = f"/ws/tables/{table.pk}/" + (f"?{urlencode({'invite': invite})}" if invite else "")
    summary = selectors.table_summary(table, seats)
    summary["rules"] = all_lines(table.options)
    strings = table_strings()
    preset = preset_title(table.preset, table.options)
    changes = differences(table.preset, table.options)
    if table.dealing_source:  # a duplicate round's table, in the event's words
        strings, preset, summary["rules"] = duplicate_words(
            table.options, strings=strings, preset=preset, lines=summary["rules"]
        )
        changes = [in_boards(c, table.options.get("deals")) for c in changes]
    config = {
        "table_id": table.pk,
        "ws_path": ws_path,
        "sprite_url": card_sprite_url(),
        "seat": seat,
        "status": table.status,
        "table": summary,
        # A duplicate round's table has no replay until every table has played its boards.
        "replay_url": None
        if selectors.boards_secret(table)
        else reverse("games:replay", args=[table.pk]),
        # The browser measures its clock's distance from the server's with this.
        "now": timezone.now().isoformat(),
        # "Play again" at the end of the match (a button of the board when it is won).
        "rematch": _rematch_offer(table, user),
    }
    invite_url = None
    if table.is_private and seat is not None:
        invite_url = request.build_absolute_uri(
            reverse("games:table", args=[table.pk]) + f"?{urlencode({'invite': table.invite_code})}"
        )
    return render(
        request,
        "games/table.html",
        {
            "table": table,
            "seat": seat,
            "seats": [
                {
                    "label": seat_label(by_number[n]),
                    "mine": user.is_authenticated and by_number[n].user_id == user.pk,
                }
                if n in by_number
                else None
                for n in range(table.players)
            ],
            "free": table.players - len(seats),
            "creator": user.is_authenticated and table.created_by_id == user.pk,
            "preset": preset,
            "rules": summary["rules"],
            "differences": changes,
            "invite": invite,
            "invite_url": invite_url,
            "ending": match_ending(table),
            "rematch": config["rematch"],
            # The board itself offers it when the match was won (static/js/table_controls.js).
            "rematch_shown": table.status == Table.Status.FINISHED
            and getattr(getattr(table, "result", None), "winner_seat", None) is None,
            # A resigned player (or one an organiser put out) has nothing left to resign.
            "resigned": seat is not None and seat in by_number and by_number[seat].resigned,
            "config": config,
            "strings": strings,
            "bot_form": BotForm(),
        },
    )


def match_ending(table: Table) -> str:
    """How a finished match that nobody won ended ("" otherwise); an organiser's amended
    places, with his reason, instead of "the places go by the scores"."""
    result = (
        MatchResult.objects.filter(table=table).first()
        if table.status == Table.Status.FINISHED
        else None
    )
    if result is None:
        return ""
    amendment = selectors.amendments([table.pk]).get(table.pk)
    if amendment is not None:
        return amended_text(amendment)
    return result.ending()


def _place(
    result: MatchResult | None, amendment: placing.Amendment | None, seat: int | None
) -> int | None:
    """The place that counts: the organiser's amended one, else the result's."""
    if result is None or seat is None:
        return None
    return amendment.places[seat] if amendment is not None else int(result.placements[seat])


def amended_text(amendment: placing.Amendment) -> str:
    return _("The organiser amended the places: %(reason)s") % {
        "reason": amendment.reason or _("no reason given")
    }


def favicon(request: HttpRequest) -> HttpResponse:
    return redirect(static("favicon.svg"), permanent=True)


# -- my matches --------------------------------------------------------------------------


@login_required
def my_matches(request: HttpRequest) -> HttpResponse:
    rows = []
    tables = list(selectors.table_list_for_user(user=signed_in(request.user)))
    amended = selectors.amendments(
        table.pk for table in tables if table.status == Table.Status.FINISHED
    )
    for table in tables:
        seats = {s.number: s for s in table.seats.all()}
        mine = next((s.number for s in seats.values() if s.user_id == request.user.pk), None)
        result = getattr(table, "result", None) if table.status == Table.Status.FINISHED else None
        # A person who resigned or was away at the end: a bot played his seat from deal N.
        bot_from = (
            bot_took_over_from(table_id=table.pk, seat=mine)
            if mine is not None and (seats[mine].resigned or seats[mine].away)
            else None
        )
        rows.append(
            {
                "table": table,
                "preset": preset_label(table.preset),
                "players": [
                    seat_label(seats[n]) if n in seats else "" for n in range(table.players)
                ],
                "seat": mine,
                "place": _place(result, amended.get(table.pk), mine),
                "score": result.final_scores[mine]
                if result is not None and mine is not None
                else None,
                "ending": (
                    amended_text(amended[table.pk]) if table.pk in amended else result.ending()
                )
                if result is not None
                else "",
                "amended": table.pk in amended,
                "bot_from": bot_from,
            }
        )
    return render(request, "games/matches.html", {"rows": rows})
