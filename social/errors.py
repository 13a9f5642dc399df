"""The errors of the social app (friends, chat, challenges): one small hierarchy with a stable
``code`` each, answered by the API in its one shape and by the chat socket as
``{"type": "error", "code": …}``. Every one is raised before anything changes."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from core import errors
from core.errors import ServiceError


class SocialError(ServiceError):
    """The social app's errors (``core.errors``: code, status, message)."""


class Invalid(SocialError, errors.Malformed):
    default_message = _("The request is not valid.")


class NotFound(SocialError, errors.NotFound):
    default_message = _("No such player.")


class Forbidden(SocialError, errors.Forbidden):
    default_message = _("You may not do that.")


class Blocked(SocialError):
    code = "blocked"
    status = 403
    default_message = _("This player does not take messages or challenges from you.")


class RateLimited(SocialError, errors.RateLimited):
    default_message = _("You are writing too fast: wait a moment.")


class ChatOff(SocialError):
    code = "chat_off"
    status = 409
    default_message = _("Chat is off here.")


class Muted(SocialError):
    code = "muted"
    status = 403
    default_message = _("A moderator has muted you for a while.")


class WrongState(SocialError, errors.WrongState):
    default_message = _("That is no longer possible.")


class ChallengesClosed(SocialError):
    code = "challenges_closed"
    status = 403
    default_message = _("This player takes challenges only from people he follows.")


class ChallengePending(SocialError):
    code = "challenge_pending"
    status = 409
    default_message = _(
        "A challenge between you and this player is already waiting for an answer: wait "
        "for it, or cancel yours first."
    )


class TooManyChallenges(SocialError):
    code = "too_many_challenges"
    status = 409
    default_message = _(
        "You have as many challenges waiting for answers as you may: cancel one or wait "
        "for the answers."
    )


class TooManyBotTables(SocialError):
    """A challenge's table would pass its challenger's caps on tables of bots."""

    code = "too_many_bot_tables"
    status = 409
    default_message = _(
        "The challenger has as many tables against bots playing as he may just now: "
        "accept again when one of them ends."
    )
