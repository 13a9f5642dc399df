"""Building social state in tests, through the services only."""

from __future__ import annotations

from typing import Any

from django.test import Client

from accounts.models import User


def signed_in_client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def session_cookie(user: User) -> str:
    return signed_in_client(user).cookies["sessionid"].value


def ws_headers(user: Any | None) -> list[tuple[bytes, bytes]]:
    """A websocket's headers: the site's origin and, for a person, his session."""
    headers = [(b"origin", b"http://127.0.0.1:8000")]
    if user is not None:
        headers.append((b"cookie", f"sessionid={session_cookie(user)}".encode()))
    return headers
