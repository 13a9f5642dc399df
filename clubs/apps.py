from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "clubs"
    verbose_name = _("Clubs")

    def ready(self) -> None:
        from clubs import (
            receivers,  # noqa: F401  (connects the signal receivers)
            selectors,
            slots,
        )
        from core import moderation

        slots.register()
        # A club's moderators moderate its events' chat (the social app asks core).
        moderation.provide(selectors.moderated_tournaments)
