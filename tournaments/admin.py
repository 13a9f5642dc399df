"""Admin of the tournaments: organisers create and schedule events here, and step in
when needed (open or close registration early, start now, pause, cancel, disqualify,
reseat a round that has not started, amend a result). The actions call the services."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.types import signed_in
from tournaments import errors, live, notices, selectors, services
from tournaments.models import (
    Announcement,
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


def _with_zone(moment: Any) -> str:
    """A time in the site's zone, with the zone's name."""
    if moment is None:
        return "—"
    local = timezone.localtime(moment)
    return f"{local:%Y-%m-%d %H:%M} {local.tzname()}"


def _export(
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


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin[Tournament]):
    list_display = (
        "name", "public_page", "format", "players_per_table", "status", "paused", "starts_at_tz",
        "entrants", "current_round", "time_left", "rated",
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
        "cancel", "export_standings", "export_results",
    )  # fmt: skip

    class Media:
        # The add and change forms show only the fields of the chosen format.
        js = ("tournaments/admin_format.js",)

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

    @admin.display(description=_("page"))
    def public_page(self, obj: Tournament) -> str:
        return format_html(
            '<a href="{}" target="_blank" rel="noopener">{}</a>',
            reverse("tournaments:detail", args=[obj.pk]),
            gettext("view on site"),
        )

    @admin.display(description=_("starts"), ordering="starts_at")
    def starts_at_tz(self, obj: Tournament) -> str:
        return _with_zone(obj.starts_at)

    @admin.display(description=_("time left in the round"))
    def time_left(self, obj: Tournament) -> str:
        if obj.status != Tournament.Status.RUNNING:
            return "—"
        rnd = obj.round_set.order_by("-number").first()
        end = rnd.ends_at if rnd is not None else None
        if rnd is None or end is None or rnd.status != Round.Status.PLAYING:
            return "—"
        left = max(0, int((end - timezone.now()).total_seconds()))
        return f"{left // 60}:{left % 60:02d} (→ {_with_zone(end)})"

    @admin.action(description=_("Export the standings (CSV)"))
    def export_standings(
        self, request: HttpRequest, queryset: QuerySet[Tournament]
    ) -> HttpResponse:
        return _export(queryset, "standings", selectors.STANDINGS_COLUMNS, selectors.standings_rows)

    @admin.action(description=_("Export every table's result (CSV)"))
    def export_results(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> HttpResponse:
        return _export(queryset, "results", selectors.RESULTS_COLUMNS, selectors.result_rows)

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


class WalkInForm(forms.ModelForm[Registration]):
    """The organiser enters a player (search by name); the service decides the rest."""

    check_in = forms.BooleanField(
        label=_("check in now"),
        required=False,
        initial=True,
        help_text=_(
            "A walk-in at the club plays: checked in at once (always, once check-in is open)."
        ),
    )

    class Meta:
        model = Registration
        fields = ("tournament", "user", "seed")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if "tournament" in self.fields:
            self.fields["tournament"].queryset = Tournament.objects.filter(  # type: ignore[attr-defined]
                status__in=(
                    Tournament.Status.SCHEDULED,
                    *Tournament.ENTERABLE,
                    Tournament.Status.RUNNING,
                )
            )

    def validate_unique(self) -> None:
        """A withdrawn player may come back: the service re-enters his registration."""


class DisqualifyForm(forms.Form):
    reason = forms.CharField(
        label=_("reason"),
        max_length=200,
        help_text=_("Shown in the standings beside the player."),
    )


@admin.register(Registration)
class RegistrationAdmin(admin.ModelAdmin[Registration]):
    list_display = (
        "user", "tournament", "status", "seed", "rating", "registered_at_tz", "checked_in_at_tz",
        "reason",
    )  # fmt: skip
    list_editable = ("seed",)
    list_filter = ("status", "tournament")
    search_fields = ("user__username", "user__display_name", "tournament__name")
    list_select_related = ("user", "tournament")
    autocomplete_fields = ("user",)
    readonly_fields = (
        "tournament", "user", "status", "rating", "registered_at", "checked_in_at", "left_at",
        "reason",
    )  # fmt: skip
    actions = ("check_in", "withdraw", "disqualify")

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any
    ) -> Any:
        if obj is None:
            kwargs["form"] = WalkInForm
        return super().get_form(request, obj, change=change, **kwargs)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return () if obj is None else self.readonly_fields

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is None:
            return ("tournament", "user", "check_in", "seed")
        return (*self.readonly_fields, "seed")

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # disqualify instead: the standings and the seatings keep him

    @admin.display(description=_("registered"), ordering="registered_at")
    def registered_at_tz(self, obj: Registration) -> str:
        return _with_zone(obj.registered_at)

    @admin.display(description=_("checked in"), ordering="checked_in_at")
    def checked_in_at_tz(self, obj: Registration) -> str:
        return _with_zone(obj.checked_in_at)

    def save_model(self, request: HttpRequest, obj: Registration, form: Any, change: bool) -> None:
        if change:
            super().save_model(request, obj, form, change)  # the seed
            return
        try:
            reg = services.registration_add_walk_in(
                tournament=obj.tournament,
                user=obj.user,
                check_in=form.cleaned_data.get("check_in", False),
            )
        except errors.TournamentError as exc:
            raise _Refused(exc.message) from None
        if form.cleaned_data.get("seed") is not None:
            Registration.objects.filter(pk=reg.pk).update(seed=form.cleaned_data["seed"])
        obj.pk = reg.pk
        warning = selectors.overlap_warning(tournament=reg.tournament, user=reg.user)
        if warning:
            messages.warning(request, warning)

    def add_view(self, request: HttpRequest, form_url: str = "", extra_context: Any = None) -> Any:
        try:
            return super().add_view(request, form_url, extra_context)
        except _Refused as exc:
            messages.error(request, str(exc))
            from django.shortcuts import redirect

            return redirect(request.get_full_path())

    @admin.action(description=_("Check in"))
    def check_in(self, request: HttpRequest, queryset: QuerySet[Registration]) -> None:
        _each(
            request,
            queryset,
            lambda r: services.registration_admin_check_in(registration=r),
            gettext("Checked in"),
        )

    @admin.action(description=_("Withdraw"))
    def withdraw(self, request: HttpRequest, queryset: QuerySet[Registration]) -> None:
        _each(
            request,
            queryset,
            lambda r: services.registration_withdraw(tournament=r.tournament_id, user=r.user),
            gettext("Withdrawn"),
        )

    @admin.action(description=_("Disqualify… (asks for a reason; a table in play is resigned)"))
    def disqualify(self, request: HttpRequest, queryset: QuerySet[Registration]) -> Any:
        form = DisqualifyForm(request.POST if "apply" in request.POST else None)
        if "apply" in request.POST and form.is_valid():
            reason = form.cleaned_data["reason"]
            _each(
                request,
                queryset,
                lambda r: services.registration_disqualify(
                    registration=r, reason=reason, by=signed_in(request.user)
                ),
                gettext("Disqualified"),
            )
            return None
        return TemplateResponse(
            request,
            "admin/tournaments/disqualify_confirm.html",
            {
                **self.admin_site.each_context(request),
                "title": gettext("Disqualify these players?"),
                "registrations": queryset.select_related("user", "tournament"),
                "form": form,
                "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
                "opts": self.model._meta,
            },
        )


class _Refused(Exception):
    """A walk-in the service refused: the add form says why."""


@admin.register(Announcement)
class AnnouncementAdmin(admin.ModelAdmin[Announcement]):
    """The organiser's messages: every entrant sees one on the tournament's page and in
    his notification area."""

    list_display = ("tournament", "text", "created_by", "created_at")
    list_filter = ("tournament",)
    search_fields = ("text", "tournament__name")
    fields = ("tournament", "text")

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return obj is None and super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # it was sent

    def save_model(self, request: HttpRequest, obj: Announcement, form: Any, change: bool) -> None:
        note = notices.announcement_create(
            tournament=obj.tournament, text=obj.text, by=signed_in(request.user)
        )
        obj.pk = note.pk


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
