"""``{% load tournaments_tags %}{% notification_area %}``: the site header's notices."""

from typing import Any

from django import template
from django.template.loader import render_to_string

from tournaments import selectors

register = template.Library()


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
            '<link rel="stylesheet" href="{}"><script type="module" src="{}"></script>',
            static("tournaments/notifications.css"),
            static("tournaments/notifications.js"),
        )
    return html
