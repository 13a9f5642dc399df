import contextlib

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from accounts.models import Mail, User
from accounts.services import account_reopen


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    # Few, narrow columns: the list fits a 1280-px screen beside the filters (language,
    # activity and last sign-in are filters or on the player's page).
    list_display = ("username", "display_name", "country", "is_staff", "date_joined")
    list_filter = ("is_staff", "is_superuser", "is_active", "preferred_language", "groups")
    readonly_fields = ("closed_at",)
    search_fields = ("username", "display_name", "email", "email_pending")
    ordering = ("-date_joined",)
    actions = ("reopen",)
    date_hierarchy = "date_joined"
    fieldsets = (
        *(DjangoUserAdmin.fieldsets or ()),
        (_("Player"), {"fields": ("display_name", "country", "preferred_language", "time_zone")}),
    )

    @admin.action(description=_("Reopen the selected closed accounts (before they are erased)"))
    def reopen(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        reopened = 0
        for user in queryset.filter(closed_at__isnull=False):
            with contextlib.suppress(ValidationError):
                account_reopen(user=user)
                reopened += 1
        self.message_user(request, _("Accounts reopened: %(count)d.") % {"count": reopened})

    add_fieldsets = (
        *DjangoUserAdmin.add_fieldsets,
        (_("Player"), {"fields": ("display_name", "country", "preferred_language", "time_zone")}),
    )


@admin.register(Mail)
class MailAdmin(admin.ModelAdmin[Mail]):
    """The outbox: what was sent, what waits, what failed and why."""

    list_display = ("created_at", "kind", "to", "status", "attempts", "sent_at")
    list_filter = ("status", "kind")
    search_fields = ("to", "subject")
    date_hierarchy = "created_at"
    readonly_fields = [f.name for f in Mail._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
