from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FairplayConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "fairplay"
    verbose_name = _("Fair play")

    def ready(self) -> None:
        # The tasks are registered here: the full analysis is queued by name.
        from fairplay import tasks  # noqa: F401
        from fairplay.receivers import on_match_finished
        from games.signals import match_finished

        match_finished.connect(on_match_finished, dispatch_uid="fairplay.on_match_finished")
