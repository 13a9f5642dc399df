"""A real SMTP server on this machine (aiosmtpd) that the tests' mail goes through."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from aiosmtpd.controller import Controller

from tests.accounts.smtp import Inbox, free_port


@pytest.fixture
def smtp(settings: Any) -> Iterator[Inbox]:
    """Mail through a real SMTP server (tests using it commit: ``transaction=True``, so
    that the send, which waits for the commit, happens)."""
    inbox = Inbox()
    port = inbox.port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    try:
        yield inbox
    finally:
        controller.stop()
