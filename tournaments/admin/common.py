"""What the admin pages share: the rules fieldsets, running an action over a selection,
times in the viewer's zone, the CSV exports."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.translation import gettext

from tournaments import errors, selectors
from tournaments.models import (
    Tournament,
)

RULES = (
    "format", "players_per_table", "preset", "options", "match_target", "rated",
    "move_seconds", "round_minutes", "rounds", "duration_minutes", "advance",
    "boards", "movement", "duplicate_bots",
    "placement_points", "bot_level", "arena_range", "arena_widen",
)  # fmt: skip


def each(
    request: HttpRequest, queryset: QuerySet[Any], act: Callable[[Any], Any], done: str
) -> None:
    """Run ``act`` on each selected row; say how many it did and why the others failed."""
    count = 0
    for obj in queryset:
        try:
            act(obj)
        except errors.TournamentError as exc:
            messages.error(request, f"{obj}: {exc.message}")
        else:
            count += 1
    if count:
        messages.success(request, gettext("%(done)s: %(count)s.") % {"done": done, "count": count})


def with_zone(moment: Any) -> str:
    """A time in the site's zone, with the zone's name."""
    if moment is None:
        return "—"
    local = timezone.localtime(moment)
    return f"{local:%Y-%m-%d %H:%M} {local.tzname()}"


def export(
    queryset: QuerySet[Tournament],
    what: str,
    columns: tuple[str, ...],
    rows: Callable[..., list[dict[str, Any]]],  # a selector: rows(tournament=…)
) -> HttpResponse:
    """One CSV of the selected tournaments (a ``tournament`` column first when several)."""
    chosen = list(queryset.order_by("pk"))
    if len(chosen) == 1:
        text = selectors.csv_text(columns, rows(tournament=chosen[0]))
        name = f"tournament-{chosen[0].pk}-{what}.csv"
    else:
        text = selectors.csv_text(
            ("tournament", *columns),
            [{"tournament": t.name, **row} for t in chosen for row in rows(tournament=t)],
        )
        name = f"tournaments-{what}.csv"
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


class Refused(Exception):
    """A walk-in the service refused: the add form says why."""
