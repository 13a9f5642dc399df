from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"
    verbose_name = _("Players")

    def ready(self) -> None:
        from accounts import (
            limits,  # noqa: F401  (connects the failed sign-in counters)
            sessions,  # noqa: F401  (records where an account signs in)
            sockets,  # noqa: F401  (closes a player's sockets on revocation)
            tasks,  # noqa: F401  (registers the mail task that accounts.mail sends by name)
        )


class AccountsAdminConfig(admin_apps.AdminConfig):
    """Django's admin, on a site that asks staff for a second factor (accounts.admin_site)."""

    default = False  # named in INSTALLED_APPS; "accounts" stays AccountsConfig
    default_site = "accounts.admin_site.AdminSite"
