"""``{% analysis_panel table %}``: the analysis panel of a finished match's replay page;
``{% hint_panel table %}``: the practice hint button of a table page."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse

from analysis.hints import hints_allowed
from analysis.pages import hint_strings, panel_strings
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
        "hint_config": {"url": reverse("api-table-hint", args=[table.pk])},
        "hint_strings": panel_strings() | hint_strings(),
    }
