"""Registrations (walk-ins, disqualifying) and announcements in the admin."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.types import signed_in
from tournaments import errors, notices, selectors, services
from tournaments.admin.common import Refused, ask_reason, each, with_zone
from tournaments.models import (
    Announcement,
    Registration,
    Tournament,
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
        return with_zone(obj.registered_at)

    @admin.display(description=_("checked in"), ordering="checked_in_at")
    def checked_in_at_tz(self, obj: Registration) -> str:
        return with_zone(obj.checked_in_at)

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
            raise Refused(exc.message) from None
        if form.cleaned_data.get("seed") is not None:
            Registration.objects.filter(pk=reg.pk).update(seed=form.cleaned_data["seed"])
        obj.pk = reg.pk
        warning = selectors.overlap_warning(tournament=reg.tournament, user=reg.user)
        if warning:
            messages.warning(request, warning)

    def add_view(self, request: HttpRequest, form_url: str = "", extra_context: Any = None) -> Any:
        try:
            return super().add_view(request, form_url, extra_context)
        except Refused as exc:
            messages.error(request, str(exc))
            from django.shortcuts import redirect

            return redirect(request.get_full_path())

    @admin.action(description=_("Check in"))
    def check_in(self, request: HttpRequest, queryset: QuerySet[Registration]) -> None:
        each(
            request,
            queryset,
            lambda r: services.registration_admin_check_in(registration=r),
            gettext("Checked in"),
        )

    @admin.action(description=_("Withdraw"))
    def withdraw(self, request: HttpRequest, queryset: QuerySet[Registration]) -> None:
        each(
            request,
            queryset,
            lambda r: services.registration_withdraw(tournament=r.tournament_id, user=r.user),
            gettext("Withdrawn"),
        )

    @admin.action(description=_("Disqualify… (asks for a reason; a table in play is resigned)"))
    def disqualify(self, request: HttpRequest, queryset: QuerySet[Registration]) -> Any:
        # What cannot be done is said at once, before a reason is asked for.
        refused = []
        for reg in queryset.select_related("tournament"):
            try:
                services.registration_disqualify_check(tournament=reg.tournament)
            except errors.TournamentError as exc:
                refused.append(reg.pk)
                messages.error(request, f"{reg}: {exc.message}")
        queryset = queryset.exclude(pk__in=refused)
        if not queryset.exists():
            return None
        return ask_reason(
            self,
            request,
            queryset.select_related("user", "tournament"),
            action="disqualify",
            title=gettext("Disqualify these players?"),
            intro=gettext(
                "These players will not be seated again and are listed last, without a rank. "
                "A player at a table now resigns there (a bot plays on). In a finished "
                "tournament the standings are computed again without them."
            ),
            help_text=gettext("Shown in the standings beside the player, and to him."),
            submit=gettext("Yes, disqualify"),
            act=lambda r, reason: services.registration_disqualify(
                registration=r, reason=reason, by=signed_in(request.user)
            ),
            done=gettext("Disqualified"),
            label=lambda r: f"{r.user.get_display_name()} — {r.tournament}",
        )


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
