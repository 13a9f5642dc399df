"""A token never overrides a signed-in session, and a crafted ``?invite=`` cannot slip a
token into the table page's socket URL."""

import json
import re

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client
from rest_framework.authtoken.models import Token

from config.asgi import application
from tests.factories import UserFactory
from tests.games.helpers import open_table

pytestmark = pytest.mark.django_db(transaction=True)

ORIGIN = (b"origin", b"http://127.0.0.1:8000")


@pytest.fixture(autouse=True)
def in_memory_layer(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


async def echo_sender(path: str, headers: list[tuple[bytes, bytes]]) -> str | None:
    client = WebsocketCommunicator(application, path, headers=[ORIGIN, *headers])
    assert (await client.connect())[0]
    await client.send_json_to({"type": "echo", "payload": 1})
    sender = (await client.receive_json_from(timeout=3))["from"]
    await client.disconnect()
    return sender


def session_cookie(user) -> tuple[bytes, bytes]:
    browser = Client()
    browser.force_login(user)
    value = browser.cookies[settings.SESSION_COOKIE_NAME].value
    return (b"cookie", f"{settings.SESSION_COOKIE_NAME}={value}".encode())


@pytest.mark.asyncio
async def test_a_query_token_does_not_override_the_session():
    alice = await sync_to_async(UserFactory)(display_name="Alice")
    bob = await sync_to_async(UserFactory)(display_name="Bob")
    bobs_key = (await sync_to_async(Token.objects.create)(user=bob)).key
    cookie = await sync_to_async(session_cookie)(alice)

    assert await echo_sender(f"/ws/echo/?token={bobs_key}", [cookie]) == "Alice"


@pytest.mark.asyncio
async def test_a_header_token_does_not_override_the_session_either():
    alice = await sync_to_async(UserFactory)(display_name="Alice")
    bob = await sync_to_async(UserFactory)(display_name="Bob")
    bobs_key = (await sync_to_async(Token.objects.create)(user=bob)).key
    cookie = await sync_to_async(session_cookie)(alice)

    assert (
        await echo_sender("/ws/echo/", [cookie, (b"authorization", f"Token {bobs_key}".encode())])
        == "Alice"
    )


@pytest.mark.asyncio
async def test_without_a_session_the_token_signs_the_socket_in():
    bob = await sync_to_async(UserFactory)(display_name="Bob")
    bobs_key = (await sync_to_async(Token.objects.create)(user=bob)).key

    assert await echo_sender(f"/ws/echo/?token={bobs_key}", []) == "Bob"


def table_config(html: str) -> dict:
    match = re.search(
        r'<script id="table-config" type="application/json">(.*?)</script>', html, re.S
    )
    assert match
    return json.loads(match.group(1))


def test_the_invite_parameter_is_encoded_into_the_socket_url(client):
    table, users = open_table(humans=1, bots=0, players=3, private=True)
    client.force_login(users[0])

    html = client.get(f"/tables/{table.pk}/", {"invite": "x&token=stolen"}).content.decode()

    assert table_config(html)["ws_path"] == f"/ws/tables/{table.pk}/?invite=x%26token%3Dstolen"
