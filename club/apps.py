from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "club"
    verbose_name = _("Club")

    def ready(self) -> None:
        from club import receivers  # noqa: F401  (connects the signal receivers)
