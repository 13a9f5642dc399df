"""The errors of the clubs app, each with a stable ``code`` (``config.errors``); every one is
raised before anything changes."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from config.errors import ServiceError


class ClubError(ServiceError):
    """The clubs app's errors."""


class Invalid(ClubError):
    code = "invalid"
    default_message = _("The request is not valid.")


class NotFound(ClubError):
    code = "not_found"
    status = 404
    default_message = _("No such club.")


class Forbidden(ClubError):
    code = "forbidden"
    status = 403
    default_message = _("You may not do that in this club.")


class WrongState(ClubError):
    code = "wrong_state"
    status = 409
    default_message = _("That is no longer possible.")


class TooMany(ClubError):
    code = "rate_limited"
    status = 429
    default_message = _("You have created as many clubs as you may today: try again tomorrow.")
