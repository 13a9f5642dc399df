"""The one family of domain errors: every app's service errors derive from
:class:`ServiceError`, each with a stable ``code``, an HTTP ``status`` and a message.

The REST API answers them in its one shape, ``{"error": {"code": …, "message": …}}``
(``config.api_errors``); the websocket sends ``{"type": "error", "code": …}``; the pages
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
