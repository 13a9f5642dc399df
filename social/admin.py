"""The social app in the admin: the moderation queue of chat reports, with each reported
message's context (the messages around it in its room), and the actions that hide
messages, mute their authors for a time (in the event, or site-wide) and dismiss
reports. Every action goes through ``social.services``, which checks who may moderate
what: the site's moderators (superusers, staff with the permission to change chat
messages) everywhere, an event's organiser in his event, and whom ``core.moderation``
names (a club's moderators in the club's events; the club's people reach the admin by the
clubs app's widening of its door). Lists and pages are scoped the same way. Every text is
escaped."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import Q, QuerySet
from django.http import HttpRequest
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.types import signed_in
from core.errors import ServiceError
from social import services
from social.models import ChatBan, ChatMessage, ChatReport, SocialSettings
from social.selectors import moderated_events, moderates_an_event, site_moderator
from social.services.chat import message_place
from tournaments.admin.common import ZonedTimes, with_zone, zoned_column

CONTEXT = 5  # messages shown before and after a reported one


def _organiser(request: HttpRequest) -> bool:
    """An event's organiser (staff) or one another app names a moderator of some event (a
    club's moderator, ``core.moderation``): he moderates those events' chat here. Read once
    per request (the admin's menu asks it of each model and each permission)."""
    cached: bool | None = getattr(request, "_social_organiser", None)
    if cached is None:
        cached = _organiser_now(request)
        request._social_organiser = cached  # type: ignore[attr-defined]
    return cached


def _organiser_now(request: HttpRequest) -> bool:
    from tournaments.models import Tournament

    user = request.user
    if not user.is_active or not user.is_authenticated:
        return False
    if user.is_staff and Tournament.objects.filter(created_by_id=user.pk).exists():
        return True
    return moderates_an_event(signed_in(user))


def _in_events_of(user: Any, prefix: str = "") -> Q:
    """Messages said in the events ``user`` moderates (social.selectors.moderated_events)
    or at their tables."""
    return moderated_events(user, f"{prefix}tournament") | moderated_events(
        user, f"{prefix}table__tournament_assignment__round__tournament"
    )


class ModeratedAdmin(admin.ModelAdmin[Any]):
    """Seen by the site's moderators, and by organisers for their own events."""

    def has_module_permission(self, request: HttpRequest) -> bool:
        return super().has_module_permission(request) or _organiser(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return super().has_view_permission(request, obj) or _organiser(request)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return super().has_change_permission(request, obj) or _organiser(request)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def _mute_action(minutes: int, site_wide: bool, label: Any) -> Any:
    def action(modeladmin: Any, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        by = signed_in(request.user)
        done = 0
        for item in (
            queryset.select_related("author")
            if queryset.model is ChatMessage
            else (queryset.select_related("message__author"))
        ):
            message = item if isinstance(item, ChatMessage) else item.message
            try:
                services.chat_ban(
                    by=by,
                    user=message.author,
                    minutes=minutes,
                    **({} if site_wide else message_place(message)),
                    reason=gettext("Reported chat message #%(id)s") % {"id": message.pk},
                )
                done += 1
            except ServiceError as exc:
                modeladmin.message_user(request, exc.message, messages.ERROR)
        if done:
            modeladmin.message_user(request, gettext("Muted: %(n)s.") % {"n": done})

    action.__name__ = f"mute_{minutes}_{'site' if site_wide else 'event'}"
    return admin.action(description=label)(action)


def _hide(modeladmin: Any, request: HttpRequest, messages_: list[ChatMessage]) -> None:
    by = signed_in(request.user)
    done = 0
    for message in messages_:
        try:
            services.message_hide(by=by, message_id=message.pk)
            done += 1
        except ServiceError as exc:
            modeladmin.message_user(request, exc.message, messages.ERROR)
    if done:
        modeladmin.message_user(request, gettext("Hidden: %(n)s.") % {"n": done})


MUTES = [
    _mute_action(60, False, _("Mute the author for an hour in the event (or at the table)")),
    _mute_action(24 * 60, False, _("Mute the author for a day in the event (or at the table)")),
    _mute_action(24 * 60, True, _("Mute the author for a day on the whole site")),
    _mute_action(7 * 24 * 60, True, _("Mute the author for a week on the whole site")),
]


@admin.register(ChatReport)
class ChatReportAdmin(ModeratedAdmin):
    """The moderation queue: open reports first."""

    list_display = ("message_text", "author", "place", "reporter", "reason", "reported", "open")
    list_filter = (("handled_at", admin.EmptyFieldListFilter),)
    list_select_related = ("message__author", "reporter")
    readonly_fields = (
        "message_text",
        "author",
        "place",
        "reporter",
        "reason",
        "reported",
        "handled",
        "handled_by",
        "context",
    )
    fields = readonly_fields
    actions = ["hide_messages", *MUTES, "dismiss"]
    # Times with their zone, the viewer's (the admin's own columns name none).
    reported = zoned_column("created_at", _("reported"))
    handled = zoned_column("handled_at", _("handled"))

    def get_queryset(self, request: HttpRequest) -> QuerySet[ChatReport]:
        rows = super().get_queryset(request).select_related("message__author", "reporter")
        if site_moderator(signed_in(request.user)):
            return rows
        return rows.filter(_in_events_of(signed_in(request.user), "message__")).distinct()

    @admin.display(description=_("message"))
    def message_text(self, report: ChatReport) -> str:
        hidden = gettext(" (hidden)") if report.message.hidden_at else ""
        return format_html("{}{}", report.message.text, hidden)

    @admin.display(description=_("author"))
    def author(self, report: ChatReport) -> str:
        return format_html("{}", report.message.author.get_display_name())

    @admin.display(description=_("where"))
    def place(self, report: ChatReport) -> str:
        m = report.message
        if m.table_id is not None:
            return gettext("table #%(id)s, %(room)s") % {
                "id": m.table_id,
                "room": m.get_room_display(),
            }
        return gettext("tournament #%(id)s") % {"id": m.tournament_id}

    @admin.display(description=_("open"), boolean=True)
    def open(self, report: ChatReport) -> bool:
        return report.handled_at is None

    @admin.display(description=_("context"))
    def context(self, report: ChatReport) -> str:
        """The messages around the reported one in its room, the reported one marked."""
        m = report.message
        place = Q(table=m.table_id) if m.table_id is not None else Q(tournament=m.tournament_id)
        room = ChatMessage.objects.filter(place, room=m.room).select_related("author")
        before = list(room.filter(created_at__lt=m.created_at).order_by("-created_at")[:CONTEXT])
        after = list(room.filter(created_at__gt=m.created_at).order_by("created_at")[:CONTEXT])
        rows = [*reversed(before), m, *after]
        return format_html(
            '<ol class="chat-context">{}</ol>',
            format_html_join(
                "",
                "<li{}><time>{}</time> <b>{}</b>: {}{}</li>",
                (
                    (
                        format_html(' style="{}"', "font-weight:bold;background:#fff3c4")
                        if row.pk == m.pk
                        else "",
                        with_zone(row.created_at),
                        row.author.get_display_name(),
                        row.text,
                        gettext(" (hidden)") if row.hidden_at else "",
                    )
                    for row in rows
                ),
            ),
        )

    @admin.action(description=_("Hide the reported messages"))
    def hide_messages(self, request: HttpRequest, queryset: QuerySet[ChatReport]) -> None:
        _hide(self, request, [r.message for r in queryset.select_related("message")])

    @admin.action(description=_("Dismiss the reports (no action)"))
    def dismiss(self, request: HttpRequest, queryset: QuerySet[ChatReport]) -> None:
        n = services.reports_dismiss(
            by=signed_in(request.user), report_ids=list(queryset.values_list("pk", flat=True))
        )
        self.message_user(request, gettext("Dismissed: %(n)s.") % {"n": n})


@admin.register(ChatMessage)
class ChatMessageAdmin(ModeratedAdmin):
    list_display = ("text", "author", "room", "table", "tournament", "written", "hidden")
    list_filter = ("room", ("hidden_at", admin.EmptyFieldListFilter))
    search_fields = ("text", "author__username")
    list_select_related = ("author",)
    readonly_fields = (
        "text",
        "author",
        "room",
        "table",
        "tournament",
        "announcement",
        "written",
        "hidden",
        "hidden_by",
    )
    fields = readonly_fields
    actions = ["hide_messages", *MUTES]
    written = zoned_column("created_at", _("written"))
    hidden = zoned_column("hidden_at", _("hidden"))

    def get_queryset(self, request: HttpRequest) -> QuerySet[ChatMessage]:
        rows = super().get_queryset(request)
        if site_moderator(signed_in(request.user)):
            return rows
        return rows.filter(_in_events_of(signed_in(request.user))).distinct()

    @admin.action(description=_("Hide the messages"))
    def hide_messages(self, request: HttpRequest, queryset: QuerySet[ChatMessage]) -> None:
        _hide(self, request, list(queryset))


@admin.register(ChatBan)
class ChatBanAdmin(ZonedTimes, admin.ModelAdmin[ChatBan]):
    """Moderators' mutes: made by the actions above; shortened here (``until``, in the
    viewer's zone, which the form names). The site's moderators see every mute; an
    event's moderator (its organiser, a club's moderator) those in the events he
    moderates."""

    list_display = ("user", "tournament", "table", "until_tz", "reason", "created_by", "since")
    list_select_related = ("user", "tournament", "created_by")
    readonly_fields = ("user", "tournament", "table", "reason", "created_by", "since")
    fields = ("user", "tournament", "table", "until", "reason", "created_by", "since")
    until_tz = zoned_column("until", _("until"))
    since = zoned_column("created_at", _("since"))

    def _everyone(self, request: HttpRequest) -> bool:
        user = request.user
        return bool(user.is_active and user.is_staff and user.has_perm("social.view_chatban"))

    def _moderates(self, request: HttpRequest, obj: ChatBan | None) -> bool:
        if obj is None:
            return _organiser(request)
        return obj.tournament_id is not None and (
            ChatBan.objects.filter(
                moderated_events(signed_in(request.user), "tournament"), pk=obj.pk
            ).exists()
        )

    def get_queryset(self, request: HttpRequest) -> QuerySet[ChatBan]:
        rows = super().get_queryset(request)
        if self._everyone(request) or not request.user.is_authenticated:
            return rows
        return rows.filter(moderated_events(signed_in(request.user), "tournament"))

    def has_module_permission(self, request: HttpRequest) -> bool:
        return super().has_module_permission(request) or _organiser(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return super().has_view_permission(request, obj) or self._moderates(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return super().has_change_permission(request, obj) or self._moderates(request, obj)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(SocialSettings)
class SocialSettingsAdmin(admin.ModelAdmin[SocialSettings]):
    """Whom each person takes challenges from and who sees him online (his own choice,
    on the Friends page; the staff may look and, asked to, change it)."""

    list_display = ("user", "challenges", "presence")
    list_filter = ("challenges", "presence")
    search_fields = ("user__username",)
    list_select_related = ("user",)
    raw_id_fields = ("user",)
