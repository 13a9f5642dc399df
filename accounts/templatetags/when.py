"""Dates and times on the pages, one way everywhere: ``{% load when %}{{ value|when }}``.

One format per language — the day, the month in words, the year, the 24-hour time and
the time zone ("1 December 2026, 13:58 UTC", "1 декабря 2026, 13:58 UTC") — in a
``<time>`` element that carries the exact moment for machines. ``{{ value|when_relative }}``
is for a moment a player waits for: "in 5 minutes" / "5 minutes ago", the full date in its
title. ``{{ value|when_time }}`` is the time of day alone, for a moment of today's evening
("20:11 EET"), the full date in its title. The site keeps its times in one zone (``TIME_ZONE``, UTC), and says which.
"""

from __future__ import annotations

from datetime import datetime

from django import template
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.timesince import timesince, timeuntil
from django.utils.translation import gettext as _

register = template.Library()

FORMAT = "j E Y, H:i"
"""Day, month in words (the genitive in Russian and Ukrainian), year, 24-hour time."""

TIME_FORMAT = "H:i"


def when_text(value: datetime, format: str = FORMAT) -> str:
    """The moment as text in the active language, with its time zone."""
    local = timezone.localtime(value) if timezone.is_aware(value) else value
    return f"{date_format(local, format)} {local.tzname() or timezone.get_current_timezone_name()}"


@register.filter
def when(value: datetime | None) -> SafeString | str:
    if not value:
        return ""
    return format_html('<time datetime="{}">{}</time>', value.isoformat(), when_text(value))


@register.filter
def when_time(value: datetime | None) -> SafeString | str:
    """The time of day with its zone ("20:11 EET"), the full moment in the title."""
    if not value:
        return ""
    return format_html(
        '<time datetime="{}" title="{}">{}</time>',
        value.isoformat(),
        when_text(value),
        when_text(value, TIME_FORMAT),
    )


@register.filter
def when_relative(value: datetime | None) -> SafeString | str:
    """ "in 5 minutes" or "5 minutes ago", the exact moment in the title."""
    if not value:
        return ""
    now = timezone.now()
    if value >= now:
        text = _("in %(time)s") % {"time": timeuntil(value, now, depth=1)}
    else:
        text = _("%(time)s ago") % {"time": timesince(value, now, depth=1)}
    return format_html(
        '<time datetime="{}" title="{}">{}</time>', value.isoformat(), when_text(value), text
    )
