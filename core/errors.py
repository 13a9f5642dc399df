"""The one family of domain errors: every app's service errors derive from
:class:`ServiceError`, each with a stable ``code``, an HTTP ``status`` and a message.

The REST API answers them in its one shape, ``{"error": {"code": …, "message": …}}``
(``core.api_errors``); the websocket sends ``{"type": "error", "code": …}``; the pages
show the message. A service raises one before it changes anything.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _


class ServiceError(Exception):
    code = "error"
    status = 400
    default_message = _("The request cannot be carried out.")

    def __init__(self, message: object | None = None) -> None:
        self.message = str(message if message is not None else self.default_message)
        super().__init__(self.message)


# The kinds of refusal every app has; an app's own error of a kind derives from both its
# app's base and the kind (``class NotFound(TournamentError, errors.NotFound)``), so the
# code and status are said once and a caller may catch the kind whatever the app.


class Malformed(ServiceError):
    code = "malformed"
    default_message = _("The request is not valid.")


class NotFound(ServiceError):
    code = "not_found"
    status = 404
    default_message = _("No such thing.")


class Forbidden(ServiceError):
    code = "forbidden"
    status = 403
    default_message = _("You may not do that.")


class WrongState(ServiceError):
    code = "wrong_state"
    status = 409
    default_message = _("That is not possible now.")


class RateLimited(ServiceError):
    code = "rate_limited"
    status = 429
    default_message = _("Too many requests; slow down.")
