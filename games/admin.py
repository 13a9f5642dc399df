"""Admin of the live tables: tables with their seats, the action log read-only, the
dealings and results; abandoning a table goes through the service."""

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games import errors, services
from games.models import Dealing, MatchResult, Seat, Table, TableAction


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = ("number", "user", "bot_level", "away", "timeouts_in_row", "resigned", "joined_at")
    readonly_fields = fields


class ActionInline(ReadOnlyInline):
    model = TableAction
    fields = ("version", "dealing", "seat", "action", "source", "client_id", "created_at")
    readonly_fields = fields
    ordering = ("-version",)
    max_num = 0
    classes = ("collapse",)


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("id", "status", "players", "preset", "rated", "is_private", "move_seconds",
                    "version", "created_by", "created_at", "finished_at")  # fmt: skip
    list_filter = ("status", "rated", "players", "preset", "is_private")
    search_fields = ("id", "seats__user__username", "created_by__username")
    date_hierarchy = "created_at"
    readonly_fields = ("created_by", "players", "preset", "options", "rated", "is_private", "invite_code",
                       "move_seconds", "status", "version", "first_dealer", "deadline", "created_at",
                       "started_at", "finished_at")  # fmt: skip
    # A duplicate round's secret seed would show the boards still in play: never here.
    exclude = ("dealing_source",)
    inlines = [SeatInline, ActionInline]
    actions = ["abandon"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # tables are opened on the site or through the API

    @admin.action(description=_("Abandon the selected tables (no result is written)"))
    def abandon(self, request: HttpRequest, queryset: QuerySet[Table]) -> None:
        done = 0
        for table in queryset:
            try:
                services.table_abandon(table=table)
                done += 1
            except errors.TableError as exc:
                self.message_user(request, f"#{table.pk}: {exc.message}", messages.WARNING)
        if done:
            self.message_user(
                request,
                ngettext("%d table abandoned.", "%d tables abandoned.", done) % done,
                messages.SUCCESS,
            )


@admin.register(TableAction)
class TableActionAdmin(admin.ModelAdmin):
    list_display = ("table", "version", "dealing", "seat", "action", "source", "created_at")
    list_filter = ("source",)
    search_fields = ("table__id",)
    list_select_related = ("table",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # the log is append-only


@admin.register(Dealing)
class DealingAdmin(admin.ModelAdmin):
    list_display = ("table", "number", "dealer", "commitment", "revealed", "dealt_at")
    list_filter = ("revealed",)
    search_fields = ("table__id", "commitment")
    # The server seed of a dealing in play would show the cards: never displayed here.
    fields = ("table", "number", "dealer", "commitment", "client_seeds", "dealt_at", "revealed")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(MatchResult)
class MatchResultAdmin(admin.ModelAdmin):
    list_display = ("table", "finished_at", "final_scores", "placements", "winner_seat", "deals")
    date_hierarchy = "finished_at"
    search_fields = ("table__id", "table__seats__user__username")
    readonly_fields = (
        "table",
        "finished_at",
        "final_scores",
        "placements",
        "winner_seat",
        "deals",
        "record",
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
