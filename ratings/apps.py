from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ratings"
    verbose_name = _("Ratings")

    def ready(self) -> None:
        from games.signals import match_finished
        from ratings.receivers import on_match_finished

        match_finished.connect(on_match_finished, dispatch_uid="ratings.on_match_finished")
