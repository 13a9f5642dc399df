"""The social app's parts of other apps' pages (core/slots.py): the chat of a table, a
replay and a tournament, a player's follow/block/mute buttons, and the online dot
before each of a tournament's entrants."""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _

from core import slots
from social import selectors


def table_chat(context: Any) -> str:
    return render_to_string("social/_chat.html", request=context.get("request"))


def tournament_chat(context: Any) -> str:
    """The chat, and the script that keeps the entrants' online dots current."""
    tournament = context.get("t") or context.get("tournament")
    return table_chat(context) + format_html(
        '<script src="{}" defer data-url="{}" data-online="{}"></script>',
        static("social/entrants.js"),
        reverse("api-social-entrants-online", args=[tournament.pk]),
        _("online"),
    )


def player_actions(context: Any, player: Any) -> str:
    request = context.get("request")
    relation = selectors.relation(user=getattr(request, "user", None), target=player)
    if relation is None:
        return ""
    return render_to_string(
        "social/_player_actions.html", {"player": player, "relation": relation}, request=request
    )


def entrant_mark(context: Any, user_id: int) -> str:
    """A green dot before an online entrant's name: the visitor's view of the presence of
    the page's ``entrants`` (each one's setting), read once for the whole list."""
    cache = context.render_context
    if "social.online" not in cache:
        viewer = getattr(context.get("request"), "user", None)
        entrants = context.get("entrants") or ()
        cache["social.online"] = selectors.online_seen(
            viewer=viewer, user_ids=(r.user_id for r in entrants)
        )
    if user_id not in cache["social.online"]:
        return ""
    return format_html('<span class="online-dot" title="{}">●</span> ', _("online"))


def register() -> None:
    slots.fill("table_chat", table_chat)
    slots.fill("tournament_chat", tournament_chat)
    slots.fill("player_actions", player_actions)
    slots.fill("entrant_mark", entrant_mark)
