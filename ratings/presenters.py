"""What the profile's ratings part shows, gathered once for the page, the include and the
player page."""

from __future__ import annotations

from typing import Any

from django.urls import NoReverseMatch, reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from accounts.types import User
from games.selectors import amendments, player_casual_matches
from ratings import selectors
from ratings.chart import Series, rating_chart_svg

RECENT = 10


def replay_url(table_id: int) -> str:
    try:
        return reverse("games:replay", args=[table_id])
    except NoReverseMatch:
        return f"/tables/{table_id}/replay/"


def profile_context(user: User) -> dict[str, Any]:
    history = selectors.player_rating_history(user=user)
    series = []
    for players in (2, 3, 4):
        changes = [c for c in history if c.players == players]
        if not changes:
            continue
        points = [(changes[0].played_at, changes[0].before)] + [
            (c.played_at, c.after) for c in changes
        ]
        series.append(Series(players, _("%(n)d players") % {"n": players}, points))
    chart = rating_chart_svg(
        series,
        title=_("Rating over time"),
        empty_text=_("No rated matches yet."),
        start_label=_("start"),
        match_label=_("match {n}"),
    )
    changes = list(selectors.player_recent_matches(user=user, limit=RECENT))
    amended = amendments(getattr(c, "table_id", 0) for c in changes)
    recent = [
        {
            "change": c,
            "replay_url": replay_url(getattr(c, "table_id", 0)),
            "amended": amended.get(getattr(c, "table_id", 0)),
        }
        for c in changes
    ]
    casual = player_casual_matches(user=user)
    for row in casual["recent"]:
        row["replay_url"] = replay_url(row["table_id"])
    return {
        "ratings": selectors.player_ratings(user=user),
        "chart": mark_safe(chart),  # built from numbers and escaped text only
        "series": series,
        "recent": recent,
        "stats": selectors.player_stats(user=user),
        # Unrated play, apart from the rated figures above: the ratings never count it.
        "casual": casual,
    }
