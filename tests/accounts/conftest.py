"""A real SMTP server on this machine (aiosmtpd) that the tests' mail goes through."""

from __future__ import annotations

import email
import email.policy
import re
import socket
from collections.abc import Iterator
from email.message import EmailMessage
from typing import Any

import pytest
from aiosmtpd.controller import Controller


class Inbox:
    """What the SMTP server received: parsed messages, in order."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.refuse = False

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        if self.refuse:
            return "451 Try again later"
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert isinstance(message, EmailMessage)
        self.messages.append(message)
        return "250 OK"

    def last(self, to: str) -> EmailMessage:
        found = [m for m in self.messages if m["To"] == to]
        assert found, f"no mail to {to}; got {[m['To'] for m in self.messages]}"
        return found[-1]

    @staticmethod
    def text(message: EmailMessage) -> str:
        part = message.get_body(preferencelist=("plain",))
        assert part is not None
        return str(part.get_content())

    @staticmethod
    def html(message: EmailMessage) -> str:
        part = message.get_body(preferencelist=("html",))
        assert part is not None
        return str(part.get_content())

    def link(self, to: str) -> str:
        """The path of the (last) link mailed to ``to``."""
        found = re.search(r"https?://[^/\s]+(/\S+)", self.text(self.last(to)))
        assert found, "no link in the mail"
        return found.group(1)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def smtp(settings: Any) -> Iterator[Inbox]:
    """Mail through a real SMTP server (tests using it commit: ``transaction=True``, so
    that the send, which waits for the commit, happens)."""
    inbox = Inbox()
    port = _free_port()
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
