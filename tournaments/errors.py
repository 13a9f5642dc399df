"""The errors of the tournaments: one small hierarchy with a stable ``code`` each.

The REST API answers them as ``{"error": {"code": …, "message": …}}`` (the shape of the
live tables' API); the pages show the message. Every one is raised before anything
changes.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from core import errors
from core.errors import ServiceError


class TournamentError(ServiceError):
    """The tournaments' errors (``core.errors``: code, status, message)."""


class Invalid(TournamentError):
    code = "invalid"
    default_message = _("The tournament's settings are not valid.")


class NotFound(TournamentError, errors.NotFound):
    default_message = _("No such tournament.")


class WrongState(TournamentError, errors.WrongState):
    default_message = _("That is not possible at this stage of the tournament.")


class RegistrationClosed(TournamentError):
    code = "registration_closed"
    status = 409
    default_message = _("Registration is not open.")


class Full(TournamentError):
    code = "tournament_full"
    status = 409
    default_message = _("The tournament is full.")


class NotEligible(TournamentError):
    code = "not_eligible"
    status = 403
    default_message = _("You do not meet the tournament's entry conditions.")


class AlreadyRegistered(TournamentError):
    code = "already_registered"
    status = 409
    default_message = _("You are already registered.")


class NotRegistered(TournamentError):
    code = "not_registered"
    status = 409
    default_message = _("You are not registered for this tournament.")


class CheckInClosed(TournamentError):
    code = "check_in_closed"
    status = 409
    default_message = _("Check-in is not open.")
