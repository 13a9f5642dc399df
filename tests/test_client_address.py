"""The client's address behind proxies: the ASGI middleware around the
whole application takes the N-th address from the right of X-Forwarded-For for
``DJANGO_TRUSTED_PROXIES`` = N, the peer for 0, for pages, the API and websockets alike;
never an address the client wrote. The same through real servers and HAProxy:
tests/integration/test_client_address.py."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from channels.testing import HttpCommunicator

from config.asgi import application
from core.client_address import ClientAddressMiddleware, forwarded_client

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("peer", "lines", "proxies", "client"),
    [
        ("10.0.0.5", ["6.6.6.6"], 0, "10.0.0.5"),  # no proxy: the header is a client's
        ("10.0.0.5", ["6.6.6.6, 203.0.113.9"], 1, "203.0.113.9"),  # HAProxy appended
        ("10.0.0.5", ["6.6.6.6", "203.0.113.9"], 1, "203.0.113.9"),  # ... as a second line
        ("10.0.0.5", ["6.6.6.6, 203.0.113.9, 10.0.0.4"], 2, "203.0.113.9"),  # two proxies
        ("10.0.0.5", ["203.0.113.9"], 2, "203.0.113.9"),  # fewer hops: the left-most
        ("10.0.0.5", [], 1, "10.0.0.5"),  # no header: the peer
        ("10.0.0.5", ["6.6.6.6, unknown"], 1, "10.0.0.5"),  # not written by a proxy
        ("10.0.0.5", ["6.6.6.6, 2001:db8::1"], 1, "2001:db8::1"),
    ],
)
def test_the_client_is_the_address_the_last_trusted_proxy_saw(peer, lines, proxies, client):
    assert forwarded_client(peer, lines, proxies) == client


async def seen_client(scope_type: str, headers: list[tuple[bytes, bytes]]) -> Any:
    seen: dict[str, Any] = {}

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        seen["client"] = scope["client"]

    scope = {"type": scope_type, "client": ("127.0.0.1", 5555), "headers": headers}
    await ClientAddressMiddleware(app)(scope, None, None)
    return seen["client"]


@pytest.mark.asyncio
@pytest.mark.parametrize("scope_type", ["http", "websocket"])
async def test_pages_and_websockets_get_the_same_client(scope_type, settings):
    settings.TRUSTED_PROXIES = 1
    forged = [(b"x-forwarded-for", b"6.6.6.6"), (b"x-forwarded-for", b"203.0.113.9")]

    assert await seen_client(scope_type, forged) == ("203.0.113.9", 0)
    settings.TRUSTED_PROXIES = 0
    assert await seen_client(scope_type, forged) == ("127.0.0.1", 5555)


def test_the_application_is_wrapped_for_every_protocol():
    assert isinstance(application, ClientAddressMiddleware)


async def asgi_signup(n: int, forwarded_for: str) -> int:
    body = json.dumps({"username": f"asgi{n}", "password": "a long passphrase 7"}).encode()
    communicator = HttpCommunicator(
        application,
        "POST",
        "/api/v1/auth/signup/",
        body=body,
        headers=[
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"host", b"127.0.0.1"),
            (b"x-forwarded-for", forwarded_for.encode()),
        ],
    )
    communicator.scope["client"] = ("10.0.0.5", 40000)  # the proxy
    response = await communicator.get_response(timeout=10)
    return int(response["status"])


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_behind_one_proxy_a_forged_header_does_not_lift_the_sign_up_limit(settings):
    settings.TRUSTED_PROXIES = 1
    settings.ACCOUNTS_SIGNUP_RATE = "3/hour"
    statuses = [await asgi_signup(n, f"10.9.9.{n}, 198.51.100.7") for n in range(4)]
    other = await asgi_signup(9, "10.9.9.9, 198.51.100.8")

    assert statuses == [201, 201, 201, 429]
    assert other == 201  # another client behind the same proxy


ROOT = Path(__file__).resolve().parents[1]
# Every documented way of starting uvicorn: `make run`, scripts/stack (alone and each of
# --web N), the image's command, the compose replicas.
STARTS = ["Makefile", "scripts/stack", "Dockerfile", "docker-compose.yml"]


@pytest.mark.parametrize("name", STARTS)
def test_every_documented_uvicorn_leaves_the_address_to_the_service(name):
    """uvicorn's own proxy headers would take a client's X-Forwarded-For as the address
    before the service sees it (from 127.0.0.1 by default, the left-most entry with
    --forwarded-allow-ips=*)."""
    text = (ROOT / name).read_text().replace("\\\n", " ")
    commands = [
        line
        for line in re.split(r"\n(?!\s)", text)  # a command and its indented continuation
        if re.search(r"""uvicorn\W+config\.asgi:application""", line)
    ]

    assert commands
    for command in commands:
        assert "--no-proxy-headers" in command, command
        assert "forwarded-allow-ips" not in command, command
