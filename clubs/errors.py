"""The errors of the clubs app, each with a stable ``code`` (``core.errors``); every one is
raised before anything changes."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from core import errors
from core.errors import ServiceError


class ClubError(ServiceError):
    """The clubs app's errors."""


class Invalid(ClubError):
    code = "invalid"
    default_message = _("The request is not valid.")


class NotFound(ClubError, errors.NotFound):
    default_message = _("No such club.")


class Forbidden(ClubError, errors.Forbidden):
    default_message = _("You may not do that in this club.")


class WrongState(ClubError, errors.WrongState):
    default_message = _("That is no longer possible.")


class TooMany(ClubError, errors.RateLimited):
    default_message = _("You have created as many clubs as you may today: try again tomorrow.")
