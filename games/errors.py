"""The errors of the live tables: one small hierarchy with a stable ``code`` each.

The websocket sends them as ``{"type": "error", "code": …}`` and the REST API as
``{"error": {"code": …, "message": …}}`` (docs/protocol.md). Every one of them is raised
before anything changes.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from core import errors
from core.errors import ServiceError


class TableError(ServiceError):
    """The live tables' errors (``core.errors``: code, status, message)."""


class Malformed(TableError, errors.Malformed):
    default_message = _("The message is not well formed.")


class Illegal(TableError):
    code = "illegal"
    status = 409
    default_message = _("That action is not allowed now.")


class NotYourTurn(TableError):
    code = "not_your_turn"
    status = 409
    default_message = _("It is not your turn.")


class StaleVersion(TableError):
    code = "stale_version"
    status = 409
    default_message = _("The table has moved on; here is its current state.")


class NotSeated(TableError):
    code = "not_seated"
    status = 403
    default_message = _("You have no seat at this table.")


class NotPlaying(TableError):
    code = "table_not_playing"
    status = 409
    default_message = _("The table is not playing.")


class NotFinished(TableError):
    code = "not_finished"
    status = 409
    default_message = _("The match is not finished yet.")


class TableNotFound(TableError, errors.NotFound):
    default_message = _("No such table.")


class Forbidden(TableError, errors.Forbidden):
    default_message = _("You may not do that at this table.")


class TableFull(TableError):
    code = "table_full"
    status = 409
    default_message = _("The table has no free seat.")


class AlreadySeated(TableError):
    code = "already_seated"
    status = 409
    default_message = _("You already have a seat at this table.")


class NotOpen(TableError):
    code = "table_not_open"
    status = 409
    default_message = _("The table has already started.")


class TooManyTables(TableError):
    code = "too_many_tables"
    status = 409
    default_message = _(
        "You already have as many open tables as you may: start one or leave one first."
    )


class TooManyBotTables(TableError):
    code = "too_many_bot_tables"
    status = 409
    default_message = _(
        "You already have as many tables against bots playing as you may: finish or resign "
        "one first."
    )


class InvalidSeed(TableError):
    code = "invalid_seed"
    default_message = _("A client seed is 1 to 128 characters, sent before the cards are dealt.")


class TooLarge(TableError):
    code = "too_large"
    status = 413
    default_message = _("The message is too large.")


class RateLimited(TableError, errors.RateLimited):
    default_message = _("Too many messages; slow down.")


class UnknownType(TableError):
    code = "unknown_type"
    default_message = _("Unknown message type.")
