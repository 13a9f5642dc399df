"""What the admin pages share: the rules fieldsets, running an action over a selection,
times in the viewer's zone, the CSV exports."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.db import models
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments import errors, selectors
from tournaments.models import (
    Tournament,
)

RULES = (
    "format", "players_per_table", "preset", "options", "match_target", "rated",
    "move_seconds", "round_minutes", "rounds", "duration_minutes", "advance",
    "boards", "movement", "duplicate_bots", "boards_from_zero",
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


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("reason"), max_length=200)

    def __init__(self, *args: Any, help_text: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["reason"].help_text = help_text


def ask_reason(
    model_admin: Any,
    request: HttpRequest,
    queryset: QuerySet[Any],
    *,
    action: str,
    title: str,
    intro: str,
    help_text: str,
    submit: str,
    act: Callable[[Any, str], Any],
    done: str,
    label: Callable[[Any], str] = str,
) -> TemplateResponse | None:
    """An action that acts only once the organiser confirmed and said why: the first
    call shows the selection and a reason field; the confirmed one runs
    ``act(obj, reason)`` on each (see :func:`each`)."""
    form = ReasonForm(request.POST if "apply" in request.POST else None, help_text=help_text)
    if "apply" in request.POST and form.is_valid():
        reason = form.cleaned_data["reason"]
        each(request, queryset, lambda obj: act(obj, reason), done)
        return None
    chosen = list(queryset)
    return TemplateResponse(
        request,
        "admin/tournaments/reason_confirm.html",
        {
            **model_admin.admin_site.each_context(request),
            "title": title,
            "intro": intro,
            "items": [label(obj) for obj in chosen],
            "pks": [obj.pk for obj in chosen],
            "form": form,
            "action": action,
            "submit": submit,
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
            "opts": model_admin.model._meta,
        },
    )


def with_zone(moment: Any) -> str:
    """A time in the viewer's zone (his profile's, else the site's), with the zone's name."""
    if moment is None:
        return "—"
    local = timezone.localtime(moment)
    return f"{local:%Y-%m-%d %H:%M} {local.tzname()}"


def zoned_column(field: str, description: Any) -> Any:
    """A list column of a moment, with its zone (the admin's own shows none)."""

    @admin.display(description=description, ordering=field)
    def column(model_admin: Any, obj: Any) -> str:
        return with_zone(getattr(obj, field))

    return column


def zone_note() -> str:
    """Which zone the admin's forms read and show their times in."""
    return gettext("Times are in %(zone)s (your profile's time zone).") % {
        "zone": timezone.get_current_timezone_name()
    }


class ZonedTimes:
    """A model admin whose date-and-time fields say which zone they are in."""

    def formfield_for_dbfield(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        field = super().formfield_for_dbfield(db_field, request, **kwargs)  # type: ignore[misc]
        if field is not None and isinstance(db_field, models.DateTimeField):
            field.help_text = " ".join(p for p in (str(field.help_text or ""), zone_note()) if p)
        return field


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
            [
                {"tournament": tournament.name, **row}
                for tournament in chosen
                for row in rows(tournament=tournament)
            ],
        )
        name = f"tournaments-{what}.csv"
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


class Refused(Exception):
    """A walk-in the service refused: the add form says why."""
