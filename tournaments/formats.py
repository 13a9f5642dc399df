"""The formats an event can have (``Tournament.Format``), apart from the models so that
what checks a tournament's settings (``tournaments.validation``) can name them without
importing the models."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class Format(models.TextChoices):
    SWISS = "swiss", _("Swiss")
    ARENA = "arena", _("arena")
    KNOCKOUT = "knockout", _("knockout")
    DUPLICATE = "duplicate", _("duplicate")
