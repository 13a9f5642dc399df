"""Who may act on a club's objects in the admin: a superuser, or a holder of the events
right in the object's club (read once per request). Shared by the scoped tournaments
admins (``clubs/admin.py``) and the series and seasons admins (``clubs/admin_seasons.py``)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import Model, QuerySet
from django.http import HttpRequest

from accounts.types import signed_in
from clubs import errors, selectors
from clubs.models import (
    Club,
)
from tournaments.models import (
    Announcement,
    Assignment,
    AssignmentSeat,
    Registration,
    Round,
    Standing,
    Tournament,
)

# The path from each scoped model to its club's id.
CLUB_OF = {
    Tournament: "club_event__club",
    Registration: "tournament__club_event__club",
    Announcement: "tournament__club_event__club",
    Round: "tournament__club_event__club",
    Standing: "tournament__club_event__club",
    Assignment: "round__tournament__club_event__club",
    AssignmentSeat: "assignment__round__tournament__club_event__club",
}


def is_superuser(request: HttpRequest) -> bool:
    return bool(request.user.is_active and request.user.is_superuser)


def event_club_ids(request: HttpRequest) -> list[int]:
    """The clubs whose events the person may run, read once per request."""
    cached: list[int] | None = getattr(request, "_clubs_event_ids", None)
    if cached is None:
        cached = selectors.club_ids_where(user=request.user, right="events")
        request._clubs_event_ids = cached  # type: ignore[attr-defined]
    return cached


def is_mine(request: HttpRequest, obj: Model | None) -> bool:
    """Whether the organiser may act on ``obj`` (on the model at all, when ``None``)."""
    ids = event_club_ids(request)
    if obj is None or not ids:
        return bool(ids)
    path = CLUB_OF[type(obj)]
    club_id = type(obj)._default_manager.filter(pk=obj.pk).values_list(path, flat=True).first()
    return club_id in ids


def _club_scope_ok(request: HttpRequest, obj: Any) -> bool:
    ids = event_club_ids(request)
    return bool(ids) if obj is None else obj.club_id in ids


class ClubObjectPermissions(admin.ModelAdmin[Any]):
    """Django's model permissions for a superuser; for anyone else, the events right in the
    object's club (querysets and ``has_*_permission`` both; the club field offers only his
    clubs). Deleting stays a superuser's: a club stops a series and closes a season."""

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        queryset = super().get_queryset(request).select_related("club")
        if is_superuser(request):
            return queryset
        return queryset.filter(club__in=event_club_ids(request))

    def has_module_permission(self, request: HttpRequest) -> bool:
        return is_superuser(request) or bool(event_club_ids(request))

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if is_superuser(request):
            return super().has_view_permission(request, obj)
        return _club_scope_ok(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if is_superuser(request):
            return super().has_change_permission(request, obj)
        return _club_scope_ok(request, obj)

    def has_add_permission(self, request: HttpRequest) -> bool:
        if is_superuser(request):
            return super().has_add_permission(request)
        return bool(event_club_ids(request))

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_superuser(request) and super().has_delete_permission(request, obj)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fields = tuple(super().get_readonly_fields(request, obj))
        return (*fields, "club") if obj is not None else fields  # never moved between clubs

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "club":
            clubs = Club.objects.filter(archived_at__isnull=True)
            if not is_superuser(request):
                clubs = clubs.filter(pk__in=event_club_ids(request))
                ids = event_club_ids(request)
                if len(ids) == 1:
                    kwargs["initial"] = ids[0]  # his one club, chosen already
            kwargs["queryset"] = clubs
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def _run(self, request: HttpRequest, rows: QuerySet[Any], act: Any, done: Any) -> None:
        """Call ``act(user, obj)`` (a clubs service) on each selected row; report each refusal."""
        user = signed_in(request.user)
        count = 0
        for obj in rows:
            try:
                act(user, obj)
            except errors.ClubError as exc:
                self.message_user(request, f"{obj}: {exc.message}", messages.ERROR)
            else:
                count += 1
        if count:
            self.message_user(request, f"{done}: {count}", messages.SUCCESS)
