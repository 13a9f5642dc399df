"""The errors of the club (friends, chat, challenges): one small hierarchy with a stable
``code`` each, answered by the API in its one shape and by the chat socket as
``{"type": "error", "code": …}``. Every one is raised before anything changes."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from config.errors import ServiceError


class ClubError(ServiceError):
    """The club's errors (``config.errors``: code, status, message)."""


class Invalid(ClubError):
    code = "malformed"
    default_message = _("The request is not valid.")


class NotFound(ClubError):
    code = "not_found"
    status = 404
    default_message = _("No such player.")


class Forbidden(ClubError):
    code = "forbidden"
    status = 403
    default_message = _("You may not do that.")


class Blocked(ClubError):
    code = "blocked"
    status = 403
    default_message = _("This player does not take messages or challenges from you.")


class RateLimited(ClubError):
    code = "rate_limited"
    status = 429
    default_message = _("You are writing too fast: wait a moment.")


class ChatOff(ClubError):
    code = "chat_off"
    status = 409
    default_message = _("Chat is off here.")


class Muted(ClubError):
    code = "muted"
    status = 403
    default_message = _("A moderator has muted you for a while.")


class WrongState(ClubError):
    code = "wrong_state"
    status = 409
    default_message = _("That is no longer possible.")
