"""``{% load social_tags %}{% social_socket %}`` (the site header; docs/social.md): the
page's one social socket, ``ws/social/`` — presence, the person's notices, and the chat
room of the table or tournament the page shows. The social app's parts of other apps'
pages are slots it fills (``social/slots.py``).
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlencode

from django import template
from django.templatetags.static import static
from django.utils.html import format_html
from django.utils.translation import gettext as _

from games.models import Table
from tournaments.models import Tournament

register = template.Library()


@register.simple_tag(takes_context=True)
def social_socket(context: Any) -> str:
    """A signed-in person's pages, and the pages of a table or a tournament (whose chat
    an anonymous visitor may read), open the social socket."""
    request = context.get("request")
    table = context.get("table")
    tournament = context.get("t") or context.get("tournament")
    query: dict[str, Any] = {}
    if isinstance(table, Table):
        query["table"] = table.pk
        invite = request.GET.get("invite") if request is not None else None
        if invite:
            query["invite"] = invite[:64]
    elif isinstance(tournament, Tournament):
        query["tournament"] = tournament.pk
    signed_in = getattr(getattr(request, "user", None), "is_authenticated", False)
    if not signed_in and not query:
        return ""
    strings: dict[str, Any] = {
        "challenged": _("%(name)s challenges you: %(what)s."),
        "waiting": _("Your challenge to %(names)s: waiting for the answers."),
        "declined": _("%(names)s: the challenge was declined."),
        "expired": _("The challenge expired."),
        "cancelled": _("The challenge was cancelled."),
        "accept": _("Accept"),
        "decline": _("Decline"),
        "cancel": _("Cancel"),
        "close": _("Close"),
        "players": _("%(n)s players"),
        "seconds": _("%(s)s s a move"),
        "rated": _("rated"),
        "unrated": _("unrated"),
        "notices": _("Challenges"),
    }
    strings.update(_option_words())
    return format_html(
        '<link rel="stylesheet" href="{}"><script type="module" src="{}" id="social-socket" '
        'data-ws="/ws/social/{}" data-strings="{}"></script>',
        static("social/social.css"),
        static("social/social.js"),
        f"?{urlencode(query)}" if query else "",
        json.dumps(strings, ensure_ascii=False, default=str),
    )


def _option_words() -> dict[str, Any]:
    """The words of the rules, for a challenge's notice in the page's language: each
    option's name, each choice's label, on/off, each preset's name."""
    from games.pages.options import OPTIONS, PRESET_LABELS

    return {
        "options": {info.name: str(info.label) for info in OPTIONS},
        "values": {
            info.name: {json.dumps(key): str(label) for key, label in info.choices}
            for info in OPTIONS
            if info.choices
        },
        "on": _("on"),
        "off": _("off"),
        "presets": {name: str(label) for name, label in PRESET_LABELS.items()},
        "changed": _("changed: %(changes)s"),
    }
