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


@register.simple_tag(takes_context=True)
def notification_area(context: dict[str, Any], with_script: bool = True) -> str:
    """The site header's notification area of a signed-in player ("" for others)."""
    request = context.get("request")
    user = getattr(request, "user", None)
    area = selectors.notification_area(user=user)
    if area is None:
        return ""
    html = render_to_string("tournaments/_notifications.html", {"area": area}, request=request)
    if with_script:
        from django.templatetags.static import static
        from django.utils.html import format_html

        html += format_html(
            '<link rel="stylesheet" href="{}"><script src="{}" defer></script>',
            static("tournaments/notifications.css"),
            static("tournaments/notifications.js"),
        )
    return html
