from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from games.signals import match_finished
        from tournaments.receivers import on_match_finished

        match_finished.connect(on_match_finished, dispatch_uid="tournaments.on_match_finished")
