"""The replay of a finished match (/tables/<id>/replay/) and its deals frame by frame.

Thin like games/views.py: reads through ``games.selectors`` and ``games.pages``; a duplicate
round's replay closed until the round is over says when it opens.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.http import require_GET

from games import errors, selectors
from games.models import Table
from games.pages.cards import card_sprite_url
from games.pages.options import all_lines, preset_title, seat_label
from games.pages.selectors import record_sheet, replay_deal
from games.pages.strings import table_strings
from games.views import closed_or_404, match_ending, table_or_404

# -- replays -----------------------------------------------------------------------------


class _BoardsSecret(Exception):
    """A duplicate round's table or replay asked for before the round is over."""

    def __init__(self, table: Table) -> None:
        self.table = table


def _finished_record(request: HttpRequest, table_id: int) -> tuple[Table, dict[str, Any]]:
    table = table_or_404(table_id)
    if selectors.boards_secret(table):
        raise _BoardsSecret(table)
    if not selectors.may_watch(
        table=table, user=request.user, invite_code=request.GET.get("invite")
    ):
        raise Http404
    try:
        record = selectors.match_record_export(table_id=table.pk)
    except errors.TableError:
        raise Http404 from None
    return table, record


def replay(request: HttpRequest, table_id: int) -> HttpResponse:
    """A finished match step by step, every hand shown, with the score sheet and each
    deal's fair-dealing check (run in the page by static/js/fairdeal.js)."""
    try:
        table, record = _finished_record(request, table_id)
    except _BoardsSecret as closed:
        return closed_or_404(request, closed.table)
    invite = request.GET.get("invite")
    query = f"?{urlencode({'invite': invite})}" if invite else ""
    players = record.get("options", {}).get("players", table.players)
    by_number = {s.number: s for s in table.seats.select_related("user")}
    sheet = record_sheet(record)
    dealings = [
        {
            "deal": number,
            "dealer": sheet[number]["dealer"] if number < len(sheet) else None,
            "hands": deal.get("hands"),
            "talons": deal.get("talons") or [deal.get("talon")],
            "dealing": deal.get("dealing"),
        }
        for number, deal in enumerate(record["deals"])
    ]
    config = {
        "table_id": table.pk,
        "players": players,
        "first_dealer": record.get("first_dealer"),
        "deals": len(record["deals"]),
        "names": [seat_label(by_number[n]) if n in by_number else "" for n in range(players)],
        "deal_url": reverse("games:replay_deal", args=[table.pk, 0]).rsplit("/0/", 1)[0] + "/",
        "query": query,
        "sprite_url": card_sprite_url(),
        "fairdeal_url": static("js/fairdeal.js"),
        # HOOK: the fair-dealing check needs static/js/fairdeal.js, shipped separately.
        "fairdeal_available": finders.find("js/fairdeal.js") is not None,
        "dealings": dealings,
        "sheet": sheet,
        "rules": all_lines(record.get("options", {})),
    }
    return render(
        request,
        "games/replay.html",
        {
            "table": table,
            "config": config,
            "strings": table_strings(),
            "preset": preset_title(table.preset, table.options),
            "ending": match_ending(table),
            "record_url": reverse("api-table-record", args=[table.pk])
            + "?"
            + urlencode({"download": 1, **({"invite": invite} if invite else {})}),
        },
    )


@require_GET
def replay_deal_frames(request: HttpRequest, table_id: int, number: int) -> JsonResponse:
    """One deal of a finished match, frame by frame (JSON for the replay page)."""
    try:
        _table, record = _finished_record(request, table_id)
    except _BoardsSecret:
        raise Http404 from None
    try:
        data = replay_deal(record, number)
    except IndexError:
        raise Http404 from None
    return JsonResponse(data)
