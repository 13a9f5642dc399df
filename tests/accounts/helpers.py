"""Accounts built through the services, as the pages would make them."""

from __future__ import annotations

import re
from typing import Any

from accounts.models import Mail, User
from accounts.services import email_change_request, email_confirm
from tests.factories import UserFactory

BASE = "http://testserver/"


def mailed_link(to: str) -> str:
    """The path of the link in the last mail written to ``to`` (the outbox's copy)."""
    mail = Mail.objects.filter(to=to).order_by("-pk").first()
    assert mail is not None, f"no mail to {to}"
    found = re.search(r"https?://[^/\s]+(/\S+)", mail.text)
    assert found
    return found.group(1)


def user_with_address(email: str, **fields: Any) -> User:
    """A player whose address ``email`` is confirmed (by the link mailed to it)."""
    user = UserFactory(**fields)
    email_change_request(user=user, email=email, base_url=BASE)
    token = mailed_link(email).rstrip("/").rsplit("/", 1)[-1]
    return email_confirm(token=token, visitor=None)
