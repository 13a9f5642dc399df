"""``{% load tournaments_tags %}{% tournament_table_panel table %}``: on a tournament
table's page, the panel that says which tournament and round it belongs to, why it
ended, where the player placed and where he goes next (nothing for other tables)."""

from typing import Any

from django import template
from django.template.loader import render_to_string

from tournaments import selectors

register = template.Library()


@register.simple_tag(takes_context=True)
def tournament_table_panel(context: dict[str, Any], table: Any) -> str:
    request = context.get("request")
    user = getattr(request, "user", None)
    panel = selectors.table_panel(table_id=table.pk, user=user)
    if panel is None:
        return ""
    return render_to_string(
        "tournaments/_table_panel.html", {"panel": panel, "table_id": table.pk}, request=request
    )
