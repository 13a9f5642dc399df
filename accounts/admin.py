from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.utils.translation import gettext_lazy as _

from accounts.models import User


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    list_display = (
        "username",
        "display_name",
        "country",
        "preferred_language",
        "is_staff",
        "is_active",
        "date_joined",
        "last_login",
    )
    list_filter = ("is_staff", "is_superuser", "is_active", "preferred_language", "groups")
    search_fields = ("username", "display_name", "email")
    ordering = ("-date_joined",)
    date_hierarchy = "date_joined"
    fieldsets = (
        *(DjangoUserAdmin.fieldsets or ()),
        (_("Player"), {"fields": ("display_name", "country", "preferred_language")}),
    )
    add_fieldsets = (
        *DjangoUserAdmin.add_fieldsets,
        (_("Player"), {"fields": ("display_name", "country", "preferred_language")}),
    )
