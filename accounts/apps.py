from django.apps import AppConfig
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
        )
