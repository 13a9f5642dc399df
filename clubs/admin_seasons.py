"""The admin of a club's recurring evenings (series) and seasons, scoped by
:class:`clubs.admin_scope.ClubObjectPermissions`; registered when ``clubs.admin`` loads."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from accounts.types import signed_in
from clubs import admin_evenings, errors, selectors
from clubs import series as series_services
from clubs.admin_scope import ClubObjectPermissions
from clubs.models import (
    Season,
    Series,
)
from core.errors import ServiceError

WEEKDAYS = (
    (0, _("Monday")), (1, _("Tuesday")), (2, _("Wednesday")), (3, _("Thursday")),
    (4, _("Friday")), (5, _("Saturday")), (6, _("Sunday")),
)  # fmt: skip


class SeriesForm(forms.ModelForm[Series]):
    weekday = forms.TypedChoiceField(label=_("weekday"), choices=WEEKDAYS, coerce=int)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if "tournament_fields" in self.fields:
            self.fields["tournament_fields"].required = False

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if "tournament_fields" in cleaned and cleaned["tournament_fields"] is None:
            cleaned["tournament_fields"] = {}
        if not self.errors:
            trial = self.instance
            for key, value in cleaned.items():
                setattr(trial, key, value)
            try:
                series_services.series_check(trial)
            except ServiceError as exc:  # the clubs app's or the tournaments app's checks
                raise forms.ValidationError(exc.message) from exc
            except DjangoValidationError as exc:
                raise forms.ValidationError(exc.messages) from exc
        return cleaned


@admin.register(Series)
class SeriesAdmin(ClubObjectPermissions):
    """A club's recurring evenings: change one and every evening not created yet follows
    (all that follow); one already created is a tournament, changed in its own page, linked
    from the series' coming dates (that one evening)."""

    form = SeriesForm
    list_display = ("name", "club", "weekday", "start_time", "time_zone", "next_day", "stopped_at")
    list_filter = (("club", admin.RelatedOnlyFieldListFilter),)
    fields = (
        "club", "name", "weekday", "start_time", "time_zone", "tournament_fields",
        "members_only", "days_ahead", "registration_hours", "coming", "skipped", "stopped_at",
    )  # fmt: skip
    readonly_fields = ("coming", "skipped", "stopped_at")
    actions = ("create_coming", "skip_next", "skip_date", "stop")

    @admin.display(description=_("coming evenings"))
    def coming(self, obj: Series) -> str:
        return admin_evenings.coming_html(obj)

    @admin.display(description=_("next evening"))
    def next_day(self, obj: Series) -> str:
        day = selectors.series_next_day(series=obj)
        return day.isoformat() if day is not None else "—"

    def save_model(self, request: HttpRequest, obj: Series, form: Any, change: bool) -> None:
        if not change:
            obj.created_by = signed_in(request.user)
        super().save_model(request, obj, form, change)

    @admin.action(description=_("Create the coming evenings now"))
    def create_coming(self, request: HttpRequest, queryset: QuerySet[Series]) -> None:
        def act(user: User, obj: Series) -> None:
            if not selectors.can(user=user, club=obj.club, right="events"):
                raise errors.Forbidden()
            series_services.series_materialize(series=obj)

        self._run(request, queryset, act, _("Evenings created"))

    @admin.action(description=_("Skip the next evening"))
    def skip_next(self, request: HttpRequest, queryset: QuerySet[Series]) -> None:
        def act(user: User, obj: Series) -> None:
            day = selectors.series_next_day(series=obj)
            if day is None:
                raise errors.WrongState(_("This recurring evening is stopped."))
            series_services.series_skip(user=user, series=obj, day=day)

        self._run(request, queryset, act, _("Skipped"))

    @admin.action(description=_("Skip a chosen date…"))
    def skip_date(self, request: HttpRequest, queryset: QuerySet[Series]) -> Any:
        chosen = list(queryset[:2])
        if len(chosen) != 1:
            self.message_user(
                request, _("Choose one recurring evening to skip a date of."), messages.WARNING
            )
            return None
        return admin_evenings.skip_date(
            self,
            request,
            chosen[0],
            lambda day: self._run(
                request,
                queryset,
                lambda user, obj: series_services.series_skip(user=user, series=obj, day=day),
                _("Skipped"),
            ),
        )

    @admin.action(description=_("Stop (no further evening is created)"))
    def stop(self, request: HttpRequest, queryset: QuerySet[Series]) -> None:
        self._run(
            request,
            queryset,
            lambda user, obj: series_services.series_stop(user=user, series=obj),
            _("Stopped"),
        )


class SeasonForm(forms.ModelForm[Season]):
    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if "points" in cleaned and cleaned["points"] is None:
            cleaned["points"] = []
        if not self.errors:
            trial = self.instance
            for key, value in cleaned.items():
                setattr(trial, key, value)
            try:
                series_services.season_check(trial)
            except errors.ClubError as exc:
                raise forms.ValidationError(exc.message) from exc
        return cleaned


@admin.register(Season)
class SeasonAdmin(ClubObjectPermissions):
    """A club's seasons; a closed one is kept as it stood and changes no more."""

    form = SeasonForm
    list_display = ("name", "club", "starts_on", "ends_on", "scheme", "best", "closed_at", "table")
    list_filter = (("club", admin.RelatedOnlyFieldListFilter), "scheme")
    fields = ("club", "name", "starts_on", "ends_on", "scheme", "points", "best", "closed_at")
    readonly_fields = ("closed_at",)
    actions = ("close",)

    @admin.display(description=_("table"))
    def table(self, obj: Season) -> str:
        url = reverse("clubs:season", args=[obj.club.slug, obj.pk])
        return format_html('<a href="{}">{}</a>', url, _("season table"))

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if obj is not None and obj.closed_at is not None:
            return False  # the view page still shows it
        return super().has_change_permission(request, obj)

    @admin.action(description=_("Close (keep the table as it stands)"))
    def close(self, request: HttpRequest, queryset: QuerySet[Season]) -> None:
        self._run(
            request,
            queryset,
            lambda user, obj: series_services.season_close(user=user, season=obj),
            _("Closed"),
        )
