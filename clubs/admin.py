"""The Django admin, scoped to clubs: an organiser who is not a superuser sees and changes only
his clubs' events — tournaments, registrations, rounds, assignments (amendments), standings,
announcements — and creates events only for clubs where he holds the events right. A holder
of the messages right reads his clubs' sent messages; one of the moderation right works the
social app's chat queue, which scopes itself to his clubs' events (``core.moderation``).

The tournaments app knows nothing of clubs, so its model admins are unregistered here and
registered again as subclasses that put :class:`ClubPermissions` between the tournaments
admin and Django's ``ModelAdmin`` (Python's method order): every ``super()`` call of the
tournaments admin (its querysets, its "only a draft may be deleted" rules) goes through the
club check, which replaces Django's model permissions for everyone but a superuser. Querysets
(lists, actions, exports, the change pages) and ``has_*_permission`` are both scoped; the form
fields that choose a tournament or a player offer only the organiser's. Rights are read once
per request from the database, so a removed organiser is refused from his next request on.
Why no object-permission library: docs/clubs.md.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.admin.options import InlineModelAdmin
from django.contrib.admin.utils import get_fields_from_path
from django.db.models import Model, QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from accounts.types import signed_in
from clubs import (
    admin_seasons,  # noqa: F401  (registers the series and seasons admins)
    selectors,
    services,
)
from clubs.admin_scope import CLUB_OF, event_club_ids, is_mine, is_superuser
from clubs.models import (
    Club,
    ClubEvent,
    ClubMessage,
    Invitation,
    JoinRequest,
    Membership,
)
from tournaments import admin as tournaments_admin
from tournaments.admin import rounds as rounds_admin
from tournaments.models import (
    Announcement,
    Assignment,
    Registration,
    Round,
    Standing,
    Tournament,
)


def _scope_fields(form: forms.BaseForm, ids: list[int]) -> None:
    """The choices of a tournament or a player: the organiser's clubs' events and members."""
    for field in form.fields.values():
        queryset = getattr(field, "queryset", None)
        if queryset is None:
            continue
        if queryset.model is Tournament:
            field.queryset = queryset.filter(club_event__club__in=ids)  # type: ignore[attr-defined]
        elif queryset.model is User:
            field.queryset = queryset.filter(  # type: ignore[attr-defined]
                club_memberships__club__in=ids
            ).distinct()


class ClubPermissions(admin.ModelAdmin[Any]):
    """Django's model permissions, replaced for everyone but a superuser by his club rights."""

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        queryset = super().get_queryset(request)
        if is_superuser(request):
            return queryset
        return queryset.filter(**{f"{CLUB_OF[self.model]}__in": event_club_ids(request)})

    def has_module_permission(self, request: HttpRequest) -> bool:
        return is_superuser(request) or is_mine(request, None)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return (
            super().has_view_permission(request, obj)
            if is_superuser(request)
            else is_mine(request, obj)
        )

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return (
            super().has_change_permission(request, obj)
            if is_superuser(request)
            else is_mine(request, obj)
        )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return (
            super().has_add_permission(request) if is_superuser(request) else is_mine(request, None)
        )

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return (
            super().has_delete_permission(request, obj)
            if is_superuser(request)
            else is_mine(request, obj)
        )

    def get_list_filter(self, request: HttpRequest) -> Any:
        """A filter by tournament lists only the tournaments the organiser's rows have (the
        plain one would list every event's name)."""
        filters = super().get_list_filter(request)
        if is_superuser(request):
            return filters
        return tuple(
            (f, admin.RelatedOnlyFieldListFilter)
            if isinstance(f, str) and get_fields_from_path(self.model, f)[-1].is_relation
            else f
            for f in filters
        )

    def get_autocomplete_fields(self, request: HttpRequest) -> Any:
        # The player search reads every account: an organiser picks among his clubs' members.
        return super().get_autocomplete_fields(request) if is_superuser(request) else ()

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any
    ) -> Any:
        form = super().get_form(request, obj, change=change, **kwargs)
        if is_superuser(request):
            return form
        ids = event_club_ids(request)

        class Scoped(form):  # type: ignore[misc, valid-type]
            def __init__(self, *args: Any, **kw: Any) -> None:
                super().__init__(*args, **kw)
                _scope_fields(self, ids)

        return Scoped


class InlineClubPermissions(InlineModelAdmin[Any, Any]):
    """An inline's rights are its parent's (``obj`` is the parent)."""

    def _allowed(self, request: HttpRequest, obj: Any) -> bool:
        return obj is not None and is_mine(request, obj)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if is_superuser(request):
            return super().has_view_permission(request, obj)
        return self._allowed(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if is_superuser(request):
            return super().has_change_permission(request, obj)
        return self._allowed(request, obj)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if is_superuser(request):
            return super().has_add_permission(request, obj)
        return self._allowed(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if is_superuser(request):
            return super().has_delete_permission(request, obj)
        return self._allowed(request, obj)


class ScopedAssignmentInline(rounds_admin.AssignmentInline, InlineClubPermissions):
    pass


class ScopedAssignmentSeatInline(rounds_admin.AssignmentSeatInline, InlineClubPermissions):
    pass


class ClubEventForm(forms.ModelForm[Tournament]):
    """The tournament form with the club it is for (required but for a superuser)."""

    club = forms.ModelChoiceField(
        label=_("club"), queryset=Club.objects.filter(archived_at__isnull=True), required=False
    )
    members_only = forms.BooleanField(label=_("members only"), required=False)


class ScopedTournamentAdmin(tournaments_admin.TournamentAdmin, ClubPermissions):
    list_display: Any = (*tournaments_admin.TournamentAdmin.list_display, "club")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Tournament]:
        return super().get_queryset(request).select_related("club_event__club")

    @admin.display(description=_("club"), ordering="club_event__club__name")
    def club(self, obj: Tournament) -> str:
        event = getattr(obj, "club_event", None)
        return event.club.name if event is not None else "—"

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any
    ) -> Any:
        if obj is None:
            kwargs["form"] = ClubEventForm
        form = super().get_form(request, obj, change=change, **kwargs)
        if obj is None and not is_superuser(request):
            ids = event_club_ids(request)

            class Required(form):  # type: ignore[misc, valid-type]
                def __init__(self, *args: Any, **kw: Any) -> None:
                    super().__init__(*args, **kw)
                    self.fields["club"].queryset = Club.objects.filter(
                        pk__in=ids, archived_at__isnull=True
                    )
                    self.fields["club"].required = True

            return Required
        return form

    def get_fieldsets(self, request: HttpRequest, obj: Tournament | None = None) -> Any:
        fieldsets = list(super().get_fieldsets(request, obj))
        if obj is None:
            fieldsets.insert(1, (_("Club"), {"fields": ("club", "members_only")}))
        return fieldsets

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        club = form.cleaned_data.get("club") if not change else None
        if club is not None:
            services.club_event_attach(
                user=signed_in(request.user),
                club=club,
                tournament=obj,
                members_only=form.cleaned_data.get("members_only", False),
            )


class ScopedRegistrationAdmin(tournaments_admin.RegistrationAdmin, ClubPermissions):
    pass


class ScopedAnnouncementAdmin(tournaments_admin.AnnouncementAdmin, ClubPermissions):
    pass


class ScopedRoundAdmin(tournaments_admin.RoundAdmin, ClubPermissions):
    inlines = (ScopedAssignmentInline,)


class ScopedAssignmentAdmin(tournaments_admin.AssignmentAdmin, ClubPermissions):
    inlines = (ScopedAssignmentSeatInline,)


class ScopedStandingAdmin(tournaments_admin.StandingAdmin, ClubPermissions):
    pass


SCOPED: dict[type[Model], type[admin.ModelAdmin[Any]]] = {
    Tournament: ScopedTournamentAdmin,
    Registration: ScopedRegistrationAdmin,
    Announcement: ScopedAnnouncementAdmin,
    Round: ScopedRoundAdmin,
    Assignment: ScopedAssignmentAdmin,
    Standing: ScopedStandingAdmin,
}

for model, model_admin in SCOPED.items():
    admin.site.unregister(model)
    admin.site.register(model, model_admin)


_site_permission = admin.site.has_permission

# The rights whose work is done in the admin: running events, moderating their chat (the
# social app's queue, scoped to the club's events), reading the messages sent.
ADMIN_RIGHTS = ("events", "moderation", "messages")


def admin_club_ids(request: HttpRequest) -> list[int]:
    """The clubs in which the person holds a right done in the admin, read once per request."""
    cached: list[int] | None = getattr(request, "_clubs_admin_ids", None)
    if cached is None:
        cached = selectors.club_ids_where_any(user=request.user, rights=ADMIN_RIGHTS)
        request._clubs_admin_ids = cached  # type: ignore[attr-defined]
    return cached


def message_club_ids(request: HttpRequest) -> list[int]:
    """The clubs whose messages the person may read in the admin (the messages right)."""
    cached: list[int] | None = getattr(request, "_clubs_message_ids", None)
    if cached is None:
        cached = selectors.club_ids_where(user=request.user, right="messages")
        request._clubs_message_ids = cached  # type: ignore[attr-defined]
    return cached


def _has_permission(request: HttpRequest) -> bool:
    """The admin opens to staff as before, and to anyone holding a club's events,
    moderation or messages right (he signs in on the site; the admin then shows him only
    his clubs' events, their chat reports and mutes, and his clubs' messages)."""
    return _site_permission(request) or bool(request.user.is_active and admin_club_ids(request))


admin.site.has_permission = _has_permission  # type: ignore[method-assign]


class MembershipInline(admin.TabularInline[Membership, Club]):
    model = Membership
    extra = 0
    autocomplete_fields = ("user",)


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin[Club]):
    """The clubs, for the site's staff (a club's own people manage it on its page)."""

    list_display = ("name", "slug", "access", "created_by", "created_at", "archived_at")
    search_fields = ("name", "slug")
    list_filter = ("access",)
    readonly_fields = ("created_by", "created_at")
    inlines = (MembershipInline,)


@admin.register(ClubEvent)
class ClubEventAdmin(admin.ModelAdmin[ClubEvent]):
    list_display = ("club", "tournament", "members_only", "created_at")
    list_select_related = ("club", "tournament")
    raw_id_fields = ("tournament",)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """An organiser deletes his club's draft (the link goes with the tournament)."""
        if is_superuser(request):
            return super().has_delete_permission(request, obj)
        return (
            obj is not None
            and obj.club_id in event_club_ids(request)
            and obj.tournament.status == Tournament.Status.DRAFT
        )


@admin.register(JoinRequest)
class JoinRequestAdmin(admin.ModelAdmin[JoinRequest]):
    list_display = ("club", "user", "status", "created_at")
    list_filter = ("status",)


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin[Invitation]):
    list_display = ("club", "created_by", "expires_at", "revoked_at", "uses")
    exclude = ("token",)


# -- A club's recurring evenings and seasons --------------------------------------------------
#
# A club's own objects, scoped like its events: an organiser who is not a superuser sees and
# changes only the recurring evenings and seasons of the clubs where he holds the events
# right, creates them only for those clubs, and acts on them (skip, stop, create the coming
# evenings, close a season) through the clubs services, which check the right again.


@admin.register(ClubMessage)
class ClubMessageAdmin(admin.ModelAdmin[ClubMessage]):
    """The messages sent to all members: a superuser sees every club's; a holder of the
    messages right his clubs'. Read only: a message is sent from the club's page (or the
    API) and never changed once it reached the members."""

    list_display = ("subject", "club", "sender", "recipients", "sent_at")
    list_select_related = ("club", "sender")
    list_filter = (("club", admin.RelatedOnlyFieldListFilter),)
    search_fields = ("subject", "text")
    fields = ("club", "sender", "subject", "text", "recipients", "sent_at")
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> QuerySet[ClubMessage]:
        queryset = super().get_queryset(request)
        if is_superuser(request):
            return queryset
        return queryset.filter(club__in=message_club_ids(request))

    def _mine(self, request: HttpRequest, obj: ClubMessage | None) -> bool:
        ids = message_club_ids(request)
        return bool(ids) and (obj is None or obj.club_id in ids)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return is_superuser(request) or self._mine(request, None)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_superuser(request) or self._mine(request, obj)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_superuser(request)
