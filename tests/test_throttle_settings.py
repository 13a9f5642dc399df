"""The request rates are settings read on every request (ACCOUNTS_SIGNUP_RATE,
SOCIAL_WRITE_RATE): a deployment sets them by its environment, a test by the settings
fixture, and the new rate holds at once."""

from __future__ import annotations

import pytest
from django.core.cache import caches

from tests.factories import UserFactory
from tests.social.helpers import signed_in_client

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_counts():
    caches["default"].clear()
    yield
    caches["default"].clear()


def test_the_club_write_rate_is_the_setting(settings) -> None:
    settings.SOCIAL_WRITE_RATE = "2/minute"
    client = signed_in_client(UserFactory())
    targets = [UserFactory() for _ in range(3)]
    statuses = [
        client.post("/api/v1/social/follows/", {"username": t.username}).status_code
        for t in targets
    ]
    assert statuses == [201, 201, 429]


def test_the_sign_up_rate_is_the_setting(settings, client) -> None:
    settings.ACCOUNTS_SIGNUP_RATE = "1/hour"
    statuses = [
        client.post(
            "/api/v1/auth/signup/",
            {"username": f"newcomer{n}", "password": "a long enough passphrase"},
            content_type="application/json",
        ).status_code
        for n in range(2)
    ]
    assert statuses == [201, 429]
