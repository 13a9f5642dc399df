from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AnalysisConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "analysis"
    verbose_name = _("Analysis")

    def ready(self) -> None:
        from analysis import slots
        from analysis.receivers import on_match_finished
        from games.signals import match_finished

        match_finished.connect(on_match_finished, dispatch_uid="analysis.on_match_finished")
        slots.register()
