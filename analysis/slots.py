"""The analysis's parts of other apps' pages (core/slots.py): the panel of a finished
match's replay, the practice hint button of a table page, and a player's trend."""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _

from analysis.hints import hints_allowed
from analysis.pages import hint_strings, panel_strings
from analysis.selectors import player_trend
from core import slots
from games import selectors as table_selectors


def replay_tools(context: Any, table: Any) -> str:
    """The analysis panel of a finished match's replay page."""
    request = context["request"]
    user = request.user
    config = {
        "table_id": table.pk,
        "api_url": reverse("api-table-analysis", args=[table.pk]),
        "ws_path": f"/ws/tables/{table.pk}/",
        "invite": request.GET.get("invite"),
        "signed_in": bool(user.is_authenticated),
        "player": table_selectors.seat_of(table_id=table.pk, user=user) is not None,
    }
    return render_to_string(
        "analysis/_panel.html",
        {"analysis_config": config, "analysis_strings": panel_strings()},
        request=request,
    )


def table_tools(context: Any, table: Any) -> str:
    """The "What would strong do?" button, for the one person at a practice table."""
    request = context["request"]
    seat = table_selectors.seat_of(table_id=table.pk, user=request.user)
    shown = table.status == "playing" and seat is not None and hints_allowed(table)
    return render_to_string(
        "analysis/_hint.html",
        {
            "shown": shown,
            "hint_config": {
                "url": reverse("api-table-hint", args=[table.pk]),
                "names": seat_names(table) if shown else {},
            },
            "hint_strings": panel_strings() | hint_strings(),
        },
        request=request,
    )


def seat_names(table: Any) -> dict[int, str]:
    """The seats' names as the table's buttons say them ("Bot 2" for a bot: static/js/render.js)."""
    from games.models import Seat

    names = {}
    for seat in Seat.objects.filter(table=table).select_related("user").order_by("number"):
        if seat.user is None:
            names[seat.number] = _("Bot {n}").format(n=seat.number + 1)
        else:
            names[seat.number] = seat.name()
    return names


def player_sections(context: Any, player: Any) -> str:
    """A person's mean loss a decision over his analysed matches, with a trend line."""
    trend = player_trend(user=player)
    matches = trend["matches_list"]
    top = max([m["mean_loss"] for m in matches] + [1.0])
    width = max(len(matches) - 1, 1)
    points = " ".join(
        f"{i * 100 / width:.1f},{38 - m['mean_loss'] / top * 36:.1f}" for i, m in enumerate(matches)
    )
    return render_to_string(
        "analysis/_trend.html", {"trend": trend, "points": points}, request=context.get("request")
    )


def register() -> None:
    slots.fill("replay_tools", replay_tools)
    slots.fill("table_tools", table_tools)
    slots.fill("player_sections", player_sections)
