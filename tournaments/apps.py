from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from games.signals import match_finished, result_amendments, table_rematching
        from tournaments.receivers import (
            on_match_finished,
            on_result_amendments,
            refuse_rematch,
        )

        match_finished.connect(on_match_finished, dispatch_uid="tournaments.on_match_finished")
        result_amendments.connect(
            on_result_amendments, dispatch_uid="tournaments.on_result_amendments"
        )
        table_rematching.connect(refuse_rematch, dispatch_uid="tournaments.refuse_rematch")

        from tournaments import slots

        slots.register()
