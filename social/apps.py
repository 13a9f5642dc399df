from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SocialConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "social"
    verbose_name = _("Social")

    def ready(self) -> None:
        from social import (
            account_data,  # noqa: F401  (a person's chat in his data; removed on erasure)
            receivers,  # noqa: F401  (connects the signal receivers)
            slots,
        )

        slots.register()
