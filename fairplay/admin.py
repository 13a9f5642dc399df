"""The fair-play queue: moderators (``fairplay.review_flag``) review each flag with its
evidence and dismiss it, warn, or mark it as cheating (``fairplay.services.flag_review``).
Nobody else sees a flag: staff without the permission see neither the queue nor a count."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts.types import signed_in
from fairplay.errors import FairPlayError
from fairplay.models import Flag, Voiding
from fairplay.services import flag_review, flag_unmark
from fairplay.voiding import flag_void, voiding_undo

PERMISSION = "fairplay.review_flag"


class ReviewForm(forms.ModelForm[Flag]):
    verdict = forms.ChoiceField(
        label=_("Verdict"),
        required=False,
        choices=[
            ("", _("— keep open —")),
            (Flag.Status.DISMISSED, _("Dismiss")),
            (Flag.Status.WARNED, _("Warn")),
            (Flag.Status.CHEATING, _("Mark as cheating")),
        ],
    )
    review_note = forms.CharField(label=_("Note"), required=False, widget=forms.Textarea)
    void_from = forms.DateTimeField(
        label=_("Void rated results from"),
        required=False,
        help_text=_(
            "With “Mark as cheating”: annul the player's rated results from this moment on "
            "and recompute his opponents' ratings (undone from the voidings' list)."
        ),
    )

    class Meta:
        model = Flag
        fields: list[str] = []


@admin.register(Flag)
class FlagAdmin(admin.ModelAdmin[Flag]):
    form = ReviewForm
    list_display = (
        "__str__",
        "kind",
        "user",
        "partner",
        "score",
        "matches",
        "status",
        "created_at",
    )
    list_filter = ("status", "kind")
    search_fields = ("user__username", "partner__username")
    actions = ("dismiss", "warn", "mark_cheating", "unmark")
    readonly_fields = (
        "kind",
        "user",
        "partner",
        "status",
        "score",
        "threshold",
        "matches",
        "created_at",
        "updated_at",
        "reviewed_by",
        "reviewed_at",
        "note",
        "evidence_view",
        "analysis_view",
        "closures_view",
    )

    def get_queryset(self, request: HttpRequest) -> QuerySet[Flag]:
        return super().get_queryset(request).select_related("user", "partner", "reviewed_by")

    def has_module_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm(PERMISSION)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.has_perm(PERMISSION)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.has_perm(PERMISSION)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description=_("evidence"))
    def evidence_view(self, obj: Flag) -> SafeString:
        evidence = obj.evidence or {}
        parts = format_html_join("", "<li>{}: {}</li>", sorted(evidence.get("parts", {}).items()))
        counts = format_html_join("", "<li>{}: {}</li>", sorted(evidence.get("counts", {}).items()))
        tables = format_html_join(
            ", ",
            '<a href="{}">{}</a>',
            ((reverse("games:replay", args=[t]), t) for t in evidence.get("matches", [])),
        )
        decisions = format_html_join(
            "",
            '<li><a href="{}">{} / {} / {}</a>: {} → {}, {}</li>',
            (_decision_row(d) for d in evidence.get("decisions", [])),
        )
        return format_html(
            "<p>{}</p><ul>{}</ul><p>{}</p><ul>{}</ul><p>{} {}</p><p>{}</p><ul>{}</ul>",
            _("Scores (z against honest play; the flag's threshold is above):"),
            parts,
            _("Counts:"),
            counts,
            _("Matches:"),
            tables,
            _("Decisions that moved the most points (match / deal / action: from → to, points):"),
            decisions,
        )

    @admin.display(description=_("full analysis"))
    def analysis_view(self, obj: Flag) -> SafeString:
        data = obj.analysis or {}
        status = data.get("status")
        if status != "done":
            labels = {
                "queued": _("Queued on the analysis workers."),
                "running": _("Running."),
                "failed": _("Failed: %(error)s") % {"error": data.get("error", "")},
            }
            return format_html("<p>{}</p>", labels.get(status or "", _("Not asked for.")))
        players = format_html_join(
            "",
            "<li>{}: {} {}, {} {}, {} {}, {} {}</li>",
            (
                (
                    name,
                    p["decisions"],
                    _("decisions"),
                    _("agreement with master"),
                    p["agreement"],
                    _("mean loss a decision"),
                    p["mean_loss"],
                    _("other analysed players who lose less"),
                    _shown(p["others_better"]),
                )
                for name, p in sorted(data.get("players", {}).items())
            ),
        )
        matches = format_html_join(
            "",
            '<li><a href="{}">{}</a> {}: {} / {} / {}</li>',
            (
                (
                    reverse("games:replay", args=[m["table"]]),
                    m["table"],
                    m["player"],
                    m["decisions"],
                    m["agreement"],
                    m["mean_loss"],
                )
                for m in data.get("matches", [])
            ),
        )
        honest = data.get("honest", {})
        return format_html(
            "<p>{}</p><ul>{}</ul><p>{}</p><ul>{}</ul><p>{}</p>",
            _("Every decision valued by the master search from the seat's own view (%(n)s worlds):")
            % {"n": data.get("samples")},
            players,
            _("By match (decisions / agreement / mean loss):"),
            matches,
            _("Other analysed seats: %(seats)s, their median mean loss %(median)s.")
            % {"seats": honest.get("seats"), "median": _shown(honest.get("median_mean_loss"))},
        )

    @admin.display(description=_("entries closed"))
    def closures_view(self, obj: Flag) -> SafeString:
        rows = obj.closures.select_related("registration__tournament", "registration__user")
        if not rows:
            return format_html("<p>{}</p>", _("None."))
        return format_html(
            "<ul>{}</ul>",
            format_html_join(
                "",
                "<li>{} — {} ({}) {}</li>",
                (
                    (
                        c.registration.tournament,
                        c.registration.user,
                        _("reinstated")
                        if c.undone_at and not c.kept
                        else (c.kept if c.undone_at else _("disqualified")),
                        _("tables resigned: %(t)s") % {"t": c.tables} if c.tables else "",
                    )
                    for c in rows
                ),
            ),
        )

    def save_model(self, request: HttpRequest, obj: Flag, form: Any, change: bool) -> None:
        data = form.cleaned_data
        if data.get("verdict"):
            self._review(request, [obj.pk], data["verdict"], data.get("review_note", ""))
        if data.get("void_from"):
            try:
                voiding = flag_void(
                    flag_id=obj.pk, user=signed_in(request.user), since=data["void_from"]
                )
            except FairPlayError as exc:
                self.message_user(request, str(exc), messages.WARNING)
            else:
                count = len(voiding.results)
                self.message_user(
                    request, ngettext("%d result voided.", "%d results voided.", count) % count
                )

    def _review(self, request: HttpRequest, ids: list[int], status: str, note: str = "") -> None:
        done = 0
        for flag_id in ids:
            try:
                flag_review(flag_id=flag_id, user=signed_in(request.user), status=status, note=note)
            except FairPlayError as exc:
                self.message_user(request, str(exc), messages.WARNING)
            else:
                done += 1
        self.message_user(request, ngettext("%d flag reviewed.", "%d flags reviewed.", done) % done)

    @admin.action(description=_("Dismiss the selected flags"), permissions=["change"])
    def dismiss(self, request: HttpRequest, queryset: QuerySet[Flag]) -> None:
        self._review(request, list(queryset.values_list("pk", flat=True)), Flag.Status.DISMISSED)

    @admin.action(description=_("Warn the selected players"), permissions=["change"])
    def warn(self, request: HttpRequest, queryset: QuerySet[Flag]) -> None:
        self._review(request, list(queryset.values_list("pk", flat=True)), Flag.Status.WARNED)

    @admin.action(description=_("Mark the selected flags as cheating"), permissions=["change"])
    def mark_cheating(self, request: HttpRequest, queryset: QuerySet[Flag]) -> None:
        self._review(request, list(queryset.values_list("pk", flat=True)), Flag.Status.CHEATING)

    @admin.action(
        description=_("Withdraw the cheating verdict (undo the voiding, reinstate entries)"),
        permissions=["change"],
    )
    def unmark(self, request: HttpRequest, queryset: QuerySet[Flag]) -> None:
        done = 0
        for flag_id in queryset.values_list("pk", flat=True):
            try:
                flag_unmark(flag_id=flag_id, user=signed_in(request.user))
            except FairPlayError as exc:
                self.message_user(request, str(exc), messages.WARNING)
            else:
                done += 1
        self.message_user(request, ngettext("%d flag reopened.", "%d flags reopened.", done) % done)


def _shown(value: Any) -> Any:
    """A figure of the analysis, or a dash where there is none (nobody to compare with)."""
    return "—" if value is None else value


def _decision_row(d: dict[str, Any]) -> tuple[Any, ...]:
    """One decision of the evidence: its replay link, where it is (1-based) and what moved."""
    link = reverse("games:replay", args=[d["table"]])
    return (link, d["table"], d["deal"] + 1, d["action"] + 1, d["from"], d["to"], d["points"])


@admin.register(Voiding)
class VoidingAdmin(admin.ModelAdmin[Voiding]):
    list_display = ("flag", "since", "by", "at", "undone_at")
    readonly_fields = ("flag", "since", "results", "by", "at", "undone_at")
    actions = ("undo",)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm(PERMISSION)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.has_perm(PERMISSION)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.has_perm(PERMISSION)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.action(description=_("Undo the selected voidings"), permissions=["change"])
    def undo(self, request: HttpRequest, queryset: QuerySet[Voiding]) -> None:
        for voiding_id in queryset.values_list("pk", flat=True):
            try:
                voiding_undo(voiding_id=voiding_id, user=signed_in(request.user))
            except FairPlayError as exc:
                self.message_user(request, str(exc), messages.WARNING)
