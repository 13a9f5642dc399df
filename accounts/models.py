from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _
from django_countries.fields import CountryField


class User(AbstractUser):
    """A player. ``username`` is the unique sign-in name; ``display_name`` is shown at tables."""

    display_name = models.CharField(
        _("display name"),
        max_length=40,
        blank=True,
        help_text=_("Shown to other players. Leave empty to use your username."),
    )
    country = CountryField(_("country"), blank=True)
    preferred_language = models.CharField(
        _("preferred language"),
        max_length=8,
        choices=settings.LANGUAGES,
        blank=True,
        help_text=_("The site's language when you are signed in."),
    )

    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"
        constraints = [
            models.UniqueConstraint(
                Lower("username"),
                name="accounts_user_username_ci_unique",
                violation_error_message=_("A user with that username already exists."),
            ),
        ]

    def get_display_name(self) -> str:
        return self.display_name or self.username

    def __str__(self) -> str:
        return self.get_display_name()
