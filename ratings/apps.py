from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ratings"
    verbose_name = _("Ratings")

    def ready(self) -> None:
        from games.signals import match_finished, result_amendments
        from ratings import account_data  # noqa: F401  (a person's ratings in his data)
        from ratings.receivers import on_match_finished, on_result_amendments

        match_finished.connect(on_match_finished, dispatch_uid="ratings.on_match_finished")
        result_amendments.connect(on_result_amendments, dispatch_uid="ratings.on_result_amendments")
