"""What a real SMTP server (aiosmtpd) received, for the tests that send mail through it."""

from __future__ import annotations

import email
import email.policy
import re
import socket
from email.message import EmailMessage
from typing import Any


class Inbox:
    """What the SMTP server received: parsed messages, in order."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.refuse = False
        self.port = 0

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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
