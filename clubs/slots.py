"""The clubs app's part of other apps' pages (core/slots.py): the club's name and link on a
club event's page."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _

from clubs import selectors
from core import slots


def tournament_club(context: Any, tournament: Any) -> str:
    event = selectors.event_of(tournament)
    if event is None:
        return ""
    note = _("members only") if event.members_only else ""
    return format_html(
        '<p class="club-of-event">{} <a href="{}">{}</a>{}</p>',
        _("A club event of"),
        reverse("clubs:detail", args=[event.club.slug]),
        event.club.name,
        format_html(' · <span class="muted">{}</span>', note) if note else "",
    )


def register() -> None:
    slots.fill("tournament_club", tournament_club)
