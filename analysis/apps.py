from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AnalysisConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "analysis"
    verbose_name = _("Analysis")

    def ready(self) -> None:
        # The task is registered here: the services queue it by name (services.RUN_TASK).
        from analysis import slots, tasks  # noqa: F401
        from analysis.receivers import on_match_finished
        from games.signals import match_finished

        match_finished.connect(on_match_finished, dispatch_uid="analysis.on_match_finished")
        slots.register()
