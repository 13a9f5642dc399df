"""``{% analysis_panel table %}``: the analysis panel of a finished match's replay page;
``{% hint_panel table %}``: the practice hint button of a table page."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils.translation import gettext as _

from analysis.hints import hints_allowed
from analysis.pages import hint_strings, panel_strings
from analysis.selectors import player_trend
from games import selectors as table_selectors

register = template.Library()


@register.inclusion_tag("analysis/_panel.html", takes_context=True)
def analysis_panel(context: dict[str, Any], table: Any) -> dict[str, Any]:
    request = context["request"]
    invite = request.GET.get("invite")
    user = request.user
    return {
        "analysis_config": {
            "table_id": table.pk,
            "api_url": reverse("api-table-analysis", args=[table.pk]),
            "ws_path": f"/ws/tables/{table.pk}/",
            "invite": invite,
            "signed_in": bool(user.is_authenticated),
            "player": table_selectors.seat_of(table_id=table.pk, user=user) is not None,
        },
        "analysis_strings": panel_strings(),
    }


@register.inclusion_tag("analysis/_hint.html", takes_context=True)
def hint_panel(context: dict[str, Any], table: Any) -> dict[str, Any]:
    """The "What would strong do?" button, for the one person at a practice table."""
    request = context["request"]
    seat = table_selectors.seat_of(table_id=table.pk, user=request.user)
    shown = table.status == "playing" and seat is not None and hints_allowed(table)
    return {
        "shown": shown,
        "hint_config": {
            "url": reverse("api-table-hint", args=[table.pk]),
            "names": seat_names(table) if shown else {},
        },
        "hint_strings": panel_strings() | hint_strings(),
    }


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


@register.inclusion_tag("analysis/_trend.html")
def analysis_trend(player: Any) -> dict[str, Any]:
    """A person's mean loss a decision over his analysed matches, with a trend line."""
    trend = player_trend(user=player)
    matches = trend["matches_list"]
    top = max([m["mean_loss"] for m in matches] + [1.0])
    width = max(len(matches) - 1, 1)
    points = " ".join(
        f"{i * 100 / width:.1f},{38 - m['mean_loss'] / top * 36:.1f}" for i, m in enumerate(matches)
    )
    return {"trend": trend, "points": points}
