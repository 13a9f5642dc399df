"""The admin's pages of a recurring evening's coming dates (clubs/admin.py's series admin):
the dates listed on the series' page, each with its evening's own admin page once created
(to change that one evening), and the "Skip a chosen date" action's form, which lists the
coming dates and skips the one chosen through ``clubs.series.series_skip``."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any
from zoneinfo import ZoneInfo

from django import forms
from django.contrib.admin import helpers
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _

from clubs import selectors
from clubs.models import Series


def _when(series: Series, evening: selectors.Evening) -> str:
    local = timezone.localtime(evening.starts_at, ZoneInfo(series.time_zone))
    return f"{formats.date_format(local, 'D j E Y')}, {local:%H:%M} {series.time_zone}"


def _state(evening: selectors.Evening) -> str:
    if evening.skipped:
        return _("skipped")
    if evening.event is None:
        return _("not created yet")
    return str(evening.event.tournament.get_status_display())


def coming_html(series: Series) -> str:
    """The coming dates, for the series' change page: each created evening links to its
    own admin page (change that one evening there; this page's form changes all that
    follow)."""
    coming = selectors.series_coming(series=series) if series.pk else []
    if not coming:
        return "—"
    rows = []
    for evening in coming:
        link = ""
        if evening.event is not None and not evening.skipped:
            url = reverse("admin:tournaments_tournament_change", args=[evening.event.tournament_id])
            link = format_html(' · <a href="{}">{}</a>', url, _("change this evening"))
        rows.append((_when(series, evening), _state(evening), link))
    return format_html(
        # The admin's aligned form indents a list under its label's column: not this one.
        "<ul class='coming-evenings' style='margin: 0; padding: 0; list-style: none'>{}</ul>",
        format_html_join("", "<li>{} — {}{}</li>", rows),
    )


class SkipDateForm(forms.Form):
    day = forms.TypedChoiceField(label=_("Date to skip"), coerce=date.fromisoformat)

    def __init__(self, *args: Any, choices: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        day = self.fields["day"]
        assert isinstance(day, forms.ChoiceField)
        day.choices = choices


def skip_date(
    model_admin: Any,
    request: HttpRequest,
    series: Series,
    skip: Callable[[date], None],
) -> TemplateResponse | None:
    """The action's page: the series' coming dates not yet skipped; on "apply", ``skip``
    the chosen one (a date not offered is refused by the form, and nothing changes)."""
    choices = [
        (e.day.isoformat(), f"{_when(series, e)} — {_state(e)}")
        for e in selectors.series_coming(series=series)
        if not e.skipped
    ]
    form = SkipDateForm(request.POST if "apply" in request.POST else None, choices=choices)
    if form.is_bound and form.is_valid():
        skip(form.cleaned_data["day"])
        return None
    return TemplateResponse(
        request,
        "admin/clubs/series/skip_date.html",
        {
            **model_admin.admin_site.each_context(request),
            "title": _("Skip a date of %(series)s") % {"series": series.name},
            "series": series,
            "form": form,
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
            "opts": model_admin.model._meta,
        },
    )
