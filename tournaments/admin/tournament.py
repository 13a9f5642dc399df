"""The tournaments in the admin: the organiser's page, its actions and exports."""

from __future__ import annotations

import random
from typing import Any

from django.contrib import admin, messages
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments import selectors, services
from tournaments.admin.common import (
    RULES,
    ZonedTimes,
    ask_reason,
    each,
    export,
    with_zone,
    zone_note,
    zoned_column,
)
from tournaments.models import (
    Registration,
    Round,
    Tournament,
)


@admin.register(Tournament)
class TournamentAdmin(ZonedTimes, admin.ModelAdmin[Tournament]):
    list_display = (
        "name", "public_page", "format", "players_per_table", "status", "paused", "starts_at_tz",
        "entrants", "current_round", "time_left", "rated",
    )  # fmt: skip
    list_filter = ("status", "format", "rated", "players_per_table", "paused")
    search_fields = ("name", "description")
    date_hierarchy = "starts_at"
    readonly_fields = (
        "status", "paused", "seed", "cancel_reason", "created_by", "created_at_tz",
        "started_at_tz", "finished_at_tz",
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
            {"fields": ("seed", "created_by", "created_at_tz", "started_at_tz", "finished_at_tz")},
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

    starts_at_tz = zoned_column("starts_at", _("starts"))
    finished_at_tz = zoned_column("finished_at", _("finished"))
    started_at_tz = zoned_column("started_at", _("started"))
    created_at_tz = zoned_column("created_at", _("created"))

    def get_fieldsets(self, request: HttpRequest, obj: Tournament | None = None) -> Any:
        """The record's times say their zone, as the schedule's fields do (ZonedTimes)."""
        return [
            (name, {**options, "description": zone_note()} if name == _("Record") else options)
            for name, options in super().get_fieldsets(request, obj)
        ]

    @admin.display(description=_("time left in the round"))
    def time_left(self, obj: Tournament) -> str:
        if obj.status != Tournament.Status.RUNNING:
            return "—"
        round_ = obj.round_set.order_by("-number").first()
        end = round_.ends_at if round_ is not None else None
        if round_ is None or end is None or round_.status != Round.Status.PLAYING:
            return "—"
        left = max(0, int((end - timezone.now()).total_seconds()))
        return f"{left // 60}:{left % 60:02d} (→ {with_zone(end)})"

    @admin.action(description=_("Export the standings (CSV)"))
    def export_standings(
        self, request: HttpRequest, queryset: QuerySet[Tournament]
    ) -> HttpResponse:
        return export(queryset, "standings", selectors.STANDINGS_COLUMNS, selectors.standings_rows)

    @admin.action(description=_("Export every table's result (CSV)"))
    def export_results(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> HttpResponse:
        return export(queryset, "results", selectors.RESULTS_COLUMNS, selectors.result_rows)

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        if not change:
            obj.created_by = request.user  # type: ignore[assignment]
            obj.seed = obj.seed or random.SystemRandom().randrange(1, 2**31)
        super().save_model(request, obj, form, change)

    @admin.action(description=_("Schedule (announce; it then runs by itself)"))
    def schedule(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        each(
            request,
            queryset,
            lambda tournament: services.tournament_schedule(tournament=tournament),
            gettext("Scheduled"),
        )

    @admin.action(description=_("Open registration now"))
    def open_registration(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        each(
            request,
            queryset,
            lambda tournament: services.tournament_open_registration(
                tournament=tournament, early=True
            ),
            gettext("Registration opened"),
        )

    @admin.action(description=_("Close registration now"))
    def close_registration(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        each(
            request,
            queryset,
            lambda tournament: services.tournament_close_registration(tournament=tournament),
            gettext("Registration closed"),
        )

    @admin.action(description=_("Start now"))
    def start_now(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        each(
            request,
            queryset,
            lambda tournament: services.tournament_start(tournament=tournament, early=True),
            gettext("Started"),
        )

    @admin.action(description=_("Pause"))
    def pause(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        each(
            request,
            queryset,
            lambda tournament: services.tournament_pause(tournament=tournament),
            gettext("Paused"),
        )

    @admin.action(description=_("Resume"))
    def resume(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        each(
            request,
            queryset,
            lambda tournament: services.tournament_pause(tournament=tournament, paused=False),
            gettext("Resumed"),
        )

    @admin.action(description=_("Cancel… (asks for a reason; the entrants are told)"))
    def cancel(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> Any:
        # One already cancelled (or finished) is not asked about again, nor counted.
        over = (Tournament.Status.CANCELLED, Tournament.Status.FINISHED)
        for tournament in queryset.filter(status__in=over):
            said = (
                gettext("%(name)s is already cancelled.")
                if tournament.status == Tournament.Status.CANCELLED
                else gettext("%(name)s has finished: it cannot be cancelled.")
            )
            messages.warning(request, said % {"name": tournament.name})
        queryset = queryset.exclude(status__in=over)
        if not queryset.exists():
            return None
        return ask_reason(
            self,
            request,
            queryset,
            action="cancel",
            title=gettext("Cancel these tournaments?"),
            intro=gettext(
                "Nothing more happens in them: tables in play are stopped without a result, "
                "and every entrant is told why, in his notifications and on the tournament's "
                "page. This cannot be undone."
            ),
            help_text=gettext("Shown to the entrants and on the tournament's page."),
            submit=gettext("Yes, cancel"),
            act=lambda tournament, reason: services.tournament_cancel(
                tournament=tournament, reason=reason
            ),
            done=gettext("Cancelled"),
        )
