"""Admin of the ratings app: ratings and changes to look at, and corrections of results.

``RatedResult`` is a proxy of ``games.MatchResult``: organisers annul, restore or amend a
result from its page; each action records a ``ResultCorrection`` and recomputes the
ratings from that match on (``ratings.services.result_correct``)."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts.types import signed_in
from games.models import MatchResult
from ratings.models import Competitor, Rating, RatingChange, ResultCorrection
from ratings.services import result_correct


class RatedResult(MatchResult):
    class Meta:
        proxy = True
        verbose_name = _("match result (ratings)")
        verbose_name_plural = _("match results (ratings)")


@admin.register(Competitor)
class CompetitorAdmin(admin.ModelAdmin[Competitor]):
    list_display = ("id", "user", "bot_level")
    search_fields = ("user__username", "user__display_name", "bot_level")
    raw_id_fields = ("user",)


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin[Rating]):
    list_display = (
        "competitor",
        "players",
        "rating",
        "games",
        "wins",
        "provisional",
        "is_bot",
        "last_played",
    )
    list_filter = ("players", "provisional", "is_bot")
    search_fields = ("competitor__user__username", "competitor__bot_level")
    readonly_fields = [f.name for f in Rating._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin[RatingChange]):
    list_display = (
        "competitor",
        "players",
        "played_at",
        "place",
        "before",
        "after",
        "delta",
        "result",
    )
    list_filter = ("players",)
    search_fields = ("competitor__user__username",)
    raw_id_fields = ("competitor", "result")
    readonly_fields = [f.name for f in RatingChange._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class CorrectionForm(forms.ModelForm[RatedResult]):
    annulled = forms.BooleanField(label=_("Annulled"), required=False)
    amended_placements = forms.CharField(
        label=_("Amended placements"),
        required=False,
        help_text=_("Places by seat, 1 = winner, e.g. [2, 1, 3]. Empty keeps the result's own."),
    )
    reason = forms.CharField(label=_("Reason"), required=False, max_length=200)

    class Meta:
        model = RatedResult
        fields: list[str] = []

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        correction = ResultCorrection.objects.filter(result_id=self.instance.pk).first()
        if correction is not None:
            self.fields["annulled"].initial = correction.annulled
            self.fields["amended_placements"].initial = (
                json.dumps(correction.placements) if correction.placements else ""
            )
            self.fields["reason"].initial = correction.reason

    def clean_amended_placements(self) -> list[int] | None:
        raw = self.cleaned_data["amended_placements"].strip()
        if not raw:
            return None
        try:
            value = json.loads(raw)
        except json.JSONDecodeError:
            raise forms.ValidationError(_("Write the places as a list, e.g. [2, 1, 3].")) from None
        n = self.instance.table.players
        if (
            not isinstance(value, list)
            or len(value) != n
            or not all(isinstance(p, int) and 1 <= p <= n for p in value)
            or 1 not in value
        ):
            raise forms.ValidationError(
                _("Give each of the %(n)d seats a place from 1 to %(n)d, one of them 1.") % {"n": n}
            )
        return value


@admin.register(RatedResult)
class RatedResultAdmin(admin.ModelAdmin[RatedResult]):
    """Annul, restore or amend results; ratings are recomputed from the match on."""

    form = CorrectionForm
    list_display = ("id", "table", "finished_at", "placements", "final_scores", "annulled")
    list_filter = ("table__players", "table__rated")
    date_hierarchy = "finished_at"
    search_fields = ("table__seats__user__username",)
    readonly_fields = ("table", "finished_at", "final_scores", "placements", "winner_seat", "deals")
    fields = readonly_fields + ("annulled", "amended_placements", "reason")
    actions = ("annul", "restore")

    def get_queryset(self, request: HttpRequest) -> QuerySet[RatedResult]:
        return super().get_queryset(request).select_related("table", "correction").distinct()

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(boolean=True, description=_("annulled"))
    def annulled(self, obj: RatedResult) -> bool:
        correction = getattr(obj, "correction", None)
        return bool(correction and correction.annulled)

    def save_model(self, request: HttpRequest, obj: RatedResult, form: Any, change: bool) -> None:
        data = form.cleaned_data
        report = result_correct(
            result=obj,
            annulled=data["annulled"],
            placements=data["amended_placements"],
            reason=data["reason"],
            by=signed_in(request.user),
        )
        self.message_user(
            request, _("Ratings recomputed: %(summary)s.") % {"summary": report.summary()}
        )

    def _correct_all(
        self, request: HttpRequest, queryset: QuerySet[RatedResult], annulled: bool
    ) -> None:
        moved = 0
        for result in queryset.order_by("finished_at", "id"):
            moved += len(
                result_correct(result=result, annulled=annulled, by=signed_in(request.user)).moved
            )
        self.message_user(
            request,
            ngettext(
                "%(count)d result corrected; %(moved)d ratings changed.",
                "%(count)d results corrected; %(moved)d ratings changed.",
                queryset.count(),
            )
            % {"count": queryset.count(), "moved": moved},
            messages.SUCCESS,
        )

    @admin.action(description=_("Annul the selected results (recompute ratings)"))
    def annul(self, request: HttpRequest, queryset: QuerySet[RatedResult]) -> None:
        self._correct_all(request, queryset, True)

    @admin.action(description=_("Restore the selected results (recompute ratings)"))
    def restore(self, request: HttpRequest, queryset: QuerySet[RatedResult]) -> None:
        self._correct_all(request, queryset, False)
