"""``{% load club_tags %}``: the club's parts of other apps' pages (docs/social.md).

* ``{% club_socket %}`` (the site header, signed-in people): the page's one club socket,
  ``ws/club/`` — presence, the person's notices, and the chat room of the table or
  tournament the page shows;
* ``{% player_actions player %}`` (a player's page): follow, block, mute.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.utils.html import format_html

from club import selectors
from games.models import Table

register = template.Library()


@register.simple_tag(takes_context=True)
def club_socket(context: Any) -> str:
    table = context.get("table")
    tournament = context.get("t") or context.get("tournament")
    query = ""
    if isinstance(table, Table):
        query = f"?table={table.pk}"
    elif tournament is not None and type(tournament).__name__ == "Tournament":
        query = f"?tournament={tournament.pk}"
    return format_html(
        '<script src="{}" data-ws="/ws/club/{}" defer></script>', static("club/club.js"), query
    )


@register.simple_tag(takes_context=True)
def player_actions(context: Any, player: Any) -> str:
    request = context.get("request")
    relation = selectors.relation(user=getattr(request, "user", None), target=player)
    if relation is None:
        return ""
    return render_to_string(
        "club/_player_actions.html", {"player": player, "relation": relation}, request=request
    )
