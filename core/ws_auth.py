"""Websocket authentication by API token, for clients that are not browsers.

A browser is signed in by its session cookie (Channels' AuthMiddlewareStack). Any other
client may send ``Authorization: Token <key>`` in the handshake, or ``?token=<key>``
(docs/protocol.md); a valid token sets ``scope["user"]``, unless the connection is
already signed in by its session: a token, and above all one in the URL (which a crafted
link can slip in), never overrides the session's user. The log never shows the key
(core.logging.RedactSecrets).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async


@database_sync_to_async
def _user_for(key: str) -> Any:
    from rest_framework.authtoken.models import Token

    token = Token.objects.select_related("user").filter(key=key).first()
    return token.user if token is not None and token.user.is_active else None


def _token_of(scope: dict[str, Any]) -> str | None:
    for name, value in scope.get("headers", ()):
        if name == b"authorization":
            kind, _, key = value.decode("latin-1").partition(" ")
            if kind.lower() == "token" and key.strip():
                return key.strip()
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    return (query.get("token") or [None])[0]


class TokenAuthMiddleware:
    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        signed_in = getattr(scope.get("user"), "is_authenticated", False)
        key = None if signed_in else _token_of(scope)
        if key:
            user = await _user_for(key)
            if user is not None:
                # The key is kept to check it again after a revocation (core.ws_guard).
                scope = dict(scope, user=user, auth_token=key)
        return await self.app(scope, receive, send)
