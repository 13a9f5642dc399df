"""No NUL byte reaches the database (docs/security.md).

PostgreSQL text cannot hold a NUL character, and psycopg raises on a query that carries
one, so ``/players/al%00ice/``, ``?q=%00`` or a cookie ``sessionid="\\000…"`` were a 500.
No name, key or search of this service can contain one, so a request with one is
answered before any view reads it:

* a NUL in the path: 404 (no page has such an address);
* a NUL in the query string: 400;
* a NUL in a cookie: that cookie is dropped (a browser would otherwise be shut out until
  it lost the cookie), the request goes on without it;
* a websocket with a NUL in its path, query or cookies is refused at the handshake.

Under /api/ the 404 and 400 come in the API's one error shape (core.api_errors).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote_plus

from channels.security.websocket import WebsocketDenier
from django.core.exceptions import BadRequest
from django.http import Http404, HttpRequest, parse_cookie

from core.middleware import SyncAndAsyncMiddleware

NUL = "\x00"


def _query_has_nul(query_string: str) -> bool:
    return NUL in query_string or NUL in unquote_plus(query_string)


def _without_nul_cookies(cookies: dict[str, str]) -> dict[str, str]:
    return {name: value for name, value in cookies.items() if NUL not in name + value}


def _check(request: HttpRequest) -> None:
    if NUL in request.path_info:
        raise Http404("a NUL byte in the path")  # for the log; the page says not found
    if _query_has_nul(request.META.get("QUERY_STRING", "")):
        raise BadRequest("a NUL byte in the query string")
    cookies = request.COOKIES
    clean = _without_nul_cookies(cookies)
    if len(clean) != len(cookies):
        request.COOKIES = clean


class RefuseNulMiddleware(SyncAndAsyncMiddleware):
    """Django middleware, before the session's: raises Http404 or BadRequest, which
    Django turns into the site's 404 and 400 (the API's shape under /api/)."""

    def before(self, request: HttpRequest) -> None:
        _check(request)


def websocket_has_nul(scope: dict[str, Any]) -> bool:
    if NUL in scope.get("path", ""):
        return True
    if _query_has_nul(scope.get("query_string", b"").decode("latin-1")):
        return True
    for name, value in scope.get("headers", ()):
        if name == b"cookie":
            cookies = parse_cookie(value.decode("latin-1"))
            if _without_nul_cookies(cookies) != cookies:
                return True
    return False


class RefuseNulWebsocket:
    """ASGI middleware for websockets: a handshake with a NUL anywhere a lookup would
    read it is refused (403), as Channels refuses a foreign Origin."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if websocket_has_nul(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.app(scope, receive, send)
