"""A NUL byte in a request is a 404 or a 400, never a 500: PostgreSQL
text cannot hold one, so every lookup that took it from the path, the query or a cookie
raised. Every URL pattern that takes a string is tried, pages and API."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.urls.converters import IntConverter

from config.asgi import application
from core.converters import IdConverter
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

NUL_NAME = "al\x00ice"


def string_routes() -> Iterator[tuple[str, dict[str, Any]]]:
    """(URL name, kwargs) of every pattern with a string argument, the strings with a NUL."""

    def walk(patterns: list[Any], namespace: str) -> Iterator[tuple[str, dict[str, Any]]]:
        for entry in patterns:
            if isinstance(entry, URLResolver):
                inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
                yield from walk(entry.url_patterns, inner)
            elif isinstance(entry, URLPattern) and entry.name:
                converters = entry.pattern.converters
                # A string the pattern lets through with a NUL in it (str, path); a slug
                # never matches one, so no NUL reaches such a view.
                takes_nul = {k for k, c in converters.items() if re.fullmatch(c.regex, NUL_NAME)}
                if not takes_nul:
                    continue
                kwargs = {
                    key: NUL_NAME
                    if key in takes_nul
                    else 1
                    if isinstance(c, IntConverter | IdConverter)
                    else "x"
                    for key, c in converters.items()
                }
                yield f"{namespace}{entry.name}", kwargs

    yield from walk(get_resolver().url_patterns, "")


ROUTES = sorted(string_routes())


def test_the_routes_with_a_string_include_the_player_pages_and_api():
    names = {name for name, _kwargs in ROUTES}

    assert {"ratings:player", "api-player-ratings", "api-player-stats"} <= names


@pytest.mark.parametrize(("name", "kwargs"), ROUTES, ids=[name for name, _ in ROUTES])
def test_a_nul_in_a_string_of_the_path_is_a_404(name: str, kwargs: dict[str, Any]):
    UserFactory(username="alice")
    admin = Client()
    admin.force_login(UserFactory(is_staff=True, is_superuser=True))

    response = admin.get(reverse(name, kwargs=kwargs))

    assert response.status_code == 404
    if response.wsgi_request.path.startswith("/api/"):
        assert response.json()["error"]["code"] == "not_found"


@pytest.mark.parametrize(
    "url",
    [
        "/leaderboards/?q=a%00b",
        "/players/alice/?players=%00",
        "/play/?page=1%00",
        "/tournaments/?page=%00",
        "/admin/accounts/user/?username=%00",
        "/admin/accounts/user/?q=a%00",
    ],
)
def test_a_nul_in_the_query_of_a_page_is_a_400(url: str):
    UserFactory(username="alice")
    admin = Client()
    admin.force_login(UserFactory(is_staff=True, is_superuser=True))

    assert admin.get(url).status_code == 400


@pytest.mark.parametrize(
    "url",
    ["/api/v1/leaderboard/?q=a%00b", "/api/v1/tables/?status=%00", "/api/v1/tournaments/?x=%00"],
)
def test_a_nul_in_the_query_of_the_api_is_a_400_in_the_error_shape(client: Client, url: str):
    response = client.get(url)

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "malformed"


def test_a_cookie_with_a_nul_is_dropped_and_the_page_served(client: Client):
    octal_nuls = "\\000" * 12  # Python's cookie parser turns \000 into NUL

    response = client.get("/play/", HTTP_COOKIE=f'sessionid="{octal_nuls}"')

    assert response.status_code == 200


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("path", "headers"),
    [
        ("/ws/echo/?token=ab%00cd", []),
        ("/ws/echo/", [(b"cookie", b'sessionid="' + b"\\000" * 12 + b'"')]),
    ],
)
async def test_a_websocket_with_a_nul_is_refused_at_the_handshake(path, headers, settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    client = WebsocketCommunicator(
        application, path, headers=[(b"origin", b"http://127.0.0.1:8000"), *headers]
    )

    connected, _code = await client.connect(timeout=3)

    assert not connected
    await client.disconnect()
