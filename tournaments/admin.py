"""Admin of the tournaments: organisers create and schedule events here, and step in
when needed (open or close registration early, start now, pause, cancel, disqualify,
reseat a round that has not started, amend a result). The actions call the services."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments import errors, live, services
from tournaments.models import (
    Assignment,
    AssignmentSeat,
    Registration,
    Round,
    Standing,
    Tournament,
)

RULES = (
    "format", "players_per_table", "preset", "options", "match_target", "rated",
    "move_seconds", "round_minutes", "rounds", "duration_minutes", "advance",
    "placement_points", "bot_level", "arena_range", "arena_widen",
)  # fmt: skip


def _each(
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


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin[Tournament]):
    list_display = (
        "name", "format", "players_per_table", "status", "paused", "starts_at", "entrants",
        "current_round", "rated",
    )  # fmt: skip
    list_filter = ("status", "format", "rated", "players_per_table", "paused")
    search_fields = ("name", "description")
    date_hierarchy = "starts_at"
    readonly_fields = (
        "status", "paused", "seed", "cancel_reason", "created_by", "created_at", "started_at",
        "finished_at",
    )  # fmt: skip
    fieldsets = (
        (None, {"fields": ("name", "description", "status", "paused", "cancel_reason")}),
        (
            _("Format and rules"),
            {
                "fields": RULES,
                "description": _(
                    "Locked once the tournament is scheduled. A rated tournament plays its "
                    "preset unchanged."
                ),
            },
        ),
        (
            _("Schedule and entry"),
            {
                "fields": (
                    "registration_opens_at",
                    "registration_closes_at",
                    "starts_at",
                    "check_in_minutes",
                    "break_seconds",
                    "max_players",
                    "min_rating",
                    "min_rated_matches",
                )
            },
        ),
        (
            _("Record"),
            {"fields": ("seed", "created_by", "created_at", "started_at", "finished_at")},
        ),
    )
    actions = (
        "schedule", "open_registration", "close_registration", "start_now", "pause", "resume",
        "cancel",
    )  # fmt: skip

    def get_queryset(self, request: HttpRequest) -> QuerySet[Tournament]:
        return (
            super()
            .get_queryset(request)
            .annotate(
                n_entrants=Count(
                    "registrations",
                    filter=Q(
                        registrations__status__in=(
                            Registration.Status.REGISTERED,
                            Registration.Status.CHECKED_IN,
                        )
                    ),
                    distinct=True,
                ),
                n_rounds=Count("round_set", distinct=True),
            )
        )

    def has_delete_permission(self, request: HttpRequest, obj: Tournament | None = None) -> bool:
        """Only a draft: an announced tournament is cancelled, which keeps its record (and
        stops its live tables)."""
        if obj is not None and obj.status != Tournament.Status.DRAFT:
            return False
        return super().has_delete_permission(request, obj)

    def get_actions(self, request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
        actions = super().get_actions(request, *args, **kwargs)
        actions.pop("delete_selected", None)  # it would not ask whether each is a draft
        return actions

    def get_readonly_fields(self, request: HttpRequest, obj: Tournament | None = None) -> Any:
        if obj is not None and obj.status != Tournament.Status.DRAFT:
            return (*self.readonly_fields, *RULES)
        return self.readonly_fields

    @admin.display(description=_("entrants"), ordering="n_entrants")
    def entrants(self, obj: Tournament) -> int:
        return getattr(obj, "n_entrants", 0)

    @admin.display(description=_("round"), ordering="n_rounds")
    def current_round(self, obj: Tournament) -> int:
        return getattr(obj, "n_rounds", 0)

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        if not change:
            obj.created_by = request.user  # type: ignore[assignment]
            obj.seed = obj.seed or random.SystemRandom().randrange(1, 2**31)
        super().save_model(request, obj, form, change)

    @admin.action(description=_("Schedule (announce; it then runs by itself)"))
    def schedule(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        _each(
            request,
            queryset,
            lambda t: services.tournament_schedule(tournament=t),
            gettext("Scheduled"),
        )

    @admin.action(description=_("Open registration now"))
    def open_registration(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        _each(
            request,
            queryset,
            lambda t: services.tournament_open_registration(tournament=t, early=True),
            gettext("Registration opened"),
        )

    @admin.action(description=_("Close registration now"))
    def close_registration(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        _each(
            request,
            queryset,
            lambda t: services.tournament_close_registration(tournament=t),
            gettext("Registration closed"),
        )

    @admin.action(description=_("Start now"))
    def start_now(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        _each(
            request,
            queryset,
            lambda t: services.tournament_start(tournament=t, early=True),
            gettext("Started"),
        )

    @admin.action(description=_("Pause"))
    def pause(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        _each(
            request, queryset, lambda t: services.tournament_pause(tournament=t), gettext("Paused")
        )

    @admin.action(description=_("Resume"))
    def resume(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        _each(
            request,
            queryset,
            lambda t: services.tournament_pause(tournament=t, paused=False),
            gettext("Resumed"),
        )

    @admin.action(description=_("Cancel"))
    def cancel(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        reason = gettext("Cancelled by the organiser.")
        _each(
            request,
            queryset,
            lambda t: services.tournament_cancel(tournament=t, reason=reason),
            gettext("Cancelled"),
        )


@admin.register(Registration)
class RegistrationAdmin(admin.ModelAdmin[Registration]):
    list_display = ("user", "tournament", "status", "rating", "registered_at", "checked_in_at")
    list_filter = ("status", "tournament")
    search_fields = ("user__username", "user__display_name", "tournament__name")
    list_select_related = ("user", "tournament")
    readonly_fields = (
        "tournament", "user", "status", "rating", "registered_at", "checked_in_at", "left_at",
        "reason",
    )  # fmt: skip
    actions = ("disqualify",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # disqualify instead: the standings and the seatings keep him

    @admin.action(description=_("Disqualify (a table in play is resigned)"))
    def disqualify(self, request: HttpRequest, queryset: QuerySet[Registration]) -> None:
        reason = gettext("Disqualified by the organiser.")
        _each(
            request,
            queryset,
            lambda r: services.registration_disqualify(
                registration=r, reason=reason, by=request.user
            ),
            gettext("Disqualified"),
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
        "starts_at",
        "ends_at",
        "finished_at",
        "tables",
    )
    list_filter = ("status", "tournament__format")
    search_fields = ("tournament__name",)
    list_select_related = ("tournament",)
    readonly_fields = (
        "tournament",
        "number",
        "status",
        "seated_at",
        "starts_at",
        "ends_at",
        "finished_at",
    )
    inlines = (AssignmentInline,)
    actions = ("reseat",)

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
        _each(request, queryset, lambda r: services.round_reseat(round=r), gettext("Reseated"))


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
    list_display = ("__str__", "status", "live_table", "stopped_early", "amended", "finished_at")
    list_filter = ("status", "stopped_early", "amended", "round__tournament")
    search_fields = ("round__tournament__name", "seats__user__username")
    list_select_related = ("round__tournament",)
    readonly_fields = (
        "round", "number", "live_table", "status", "deals_at_limit", "stopped_early", "amended",
        "finished_at",
    )  # fmt: skip
    fields = (*readonly_fields, "places", "reason")
    inlines = (AssignmentSeatInline,)

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
                assignment=obj, places=places, by=request.user, reason=form.cleaned_data["reason"]
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
