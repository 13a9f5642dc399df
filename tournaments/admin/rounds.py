"""Rounds, their tables (assignments, amending a result) and the standings in the admin."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import Count, QuerySet
from django.http import HttpRequest
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.types import signed_in
from tournaments import errors, live, services
from tournaments.admin.common import each, zoned_column
from tournaments.models import (
    Assignment,
    AssignmentSeat,
    Round,
    Standing,
)


class AssignmentInline(admin.TabularInline[Assignment, Round]):
    model = Assignment
    fields = ("number", "status", "live_table", "stopped_early", "amended")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description=_("live table"))
    def live_table(self, obj: Assignment) -> str:
        if obj.table_id is None:
            return "—"
        return format_html('<a href="{}">#{}</a>', live.table_url(obj.table_id), obj.table_id)


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin[Round]):
    list_display = (
        "tournament",
        "number",
        "status",
        "starts_at_tz",
        "ends_at_tz",
        "finished_at_tz",
        "tables",
    )
    list_filter = ("status", "tournament__format")
    search_fields = ("tournament__name",)
    list_select_related = ("tournament",)
    readonly_fields = (
        "tournament",
        "number",
        "status",
        "seated_at_tz",
        "starts_at_tz",
        "ends_at_tz",
        "finished_at_tz",
    )
    inlines = (AssignmentInline,)
    actions = ("reseat",)
    seated_at_tz = zoned_column("seated_at", _("seated"))
    starts_at_tz = zoned_column("starts_at", _("starts"))
    ends_at_tz = zoned_column("ends_at", _("time limit"))
    finished_at_tz = zoned_column("finished_at", _("finished"))

    def get_queryset(self, request: HttpRequest) -> QuerySet[Round]:
        return super().get_queryset(request).annotate(n_tables=Count("assignments"))

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # reseat instead (before its tables open)

    @admin.display(description=_("tables"), ordering="n_tables")
    def tables(self, obj: Round) -> int:
        return getattr(obj, "n_tables", 0)

    @admin.action(description=_("Reseat (only before its tables open)"))
    def reseat(self, request: HttpRequest, queryset: QuerySet[Round]) -> None:
        each(request, queryset, lambda r: services.round_reseat(round=r), gettext("Reseated"))


class AssignmentSeatInline(admin.TabularInline[AssignmentSeat, Assignment]):
    model = AssignmentSeat
    fields = ("number", "user", "place", "score", "points")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class AmendForm(forms.ModelForm[Assignment]):
    places = forms.CharField(
        label=_("amended places"),
        required=False,
        help_text=_(
            "To amend a finished table's result: the place of each seat in seat order, e.g. "
            "“2, 1, 3”. The standings and the ratings follow."
        ),
    )
    reason = forms.CharField(label=_("reason"), required=False, max_length=200)

    class Meta:
        model = Assignment
        fields: tuple[str, ...] = ()

    def clean_places(self) -> list[int] | None:
        text = self.cleaned_data.get("places", "").strip()
        if not text:
            return None
        try:
            return [int(part) for part in text.replace(" ", "").split(",")]
        except ValueError:
            raise forms.ValidationError(_("Whole numbers separated by commas.")) from None

    def clean(self) -> dict[str, Any]:
        """Places the service would refuse stay on the form with their error (nothing is
        saved, and no "changed successfully" follows)."""
        data = super().clean() or {}
        places = data.get("places")
        if places is not None and self.instance.pk is not None:
            try:
                services.assignment_amend_check(assignment=self.instance, places=places)
            except errors.TournamentError as exc:
                self.add_error("places", exc.message)
        return data


@admin.register(Assignment)
class AssignmentAdmin(admin.ModelAdmin[Assignment]):
    form = AmendForm
    list_display = (
        "__str__", "status", "live_table", "stopped_early", "amended", "finished_at_tz",
    )  # fmt: skip
    list_filter = ("status", "stopped_early", "amended", "round__tournament")
    search_fields = ("round__tournament__name", "seats__user__username")
    list_select_related = ("round__tournament",)
    readonly_fields = (
        "round", "number", "live_table", "status", "deals_at_limit", "stopped_early", "amended",
        "amend_reason", "finished_at_tz",
    )  # fmt: skip
    fields = (*readonly_fields, "places", "reason")
    inlines = (AssignmentSeatInline,)
    finished_at_tz = zoned_column("finished_at", _("finished"))

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # amend its result instead

    @admin.display(description=_("live table"))
    def live_table(self, obj: Assignment) -> str:
        return AssignmentInline.live_table(self, obj)  # type: ignore[arg-type]

    def save_model(self, request: HttpRequest, obj: Assignment, form: Any, change: bool) -> None:
        places = form.cleaned_data.get("places")
        if places is None:
            return
        try:
            services.assignment_amend(
                assignment=obj,
                places=places,
                by=signed_in(request.user),
                reason=form.cleaned_data["reason"],
            )
        except errors.TournamentError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, gettext("The result is amended; the standings follow."))


@admin.register(Standing)
class StandingAdmin(admin.ModelAdmin[Standing]):
    list_display = (
        "tournament",
        "position",
        "rank",
        "user",
        "points",
        "opponents_points",
        "game_score",
    )
    list_filter = ("tournament",)
    search_fields = ("user__username", "user__display_name", "tournament__name")
    list_select_related = ("tournament", "user")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # computed from the results
