"""API tokens can be revoked and replaced, and a password change revokes them."""

import pytest
from rest_framework.test import APIClient

from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "another long passphrase 42"


def token_for(user) -> str:
    return (
        APIClient()
        .post("/api/v1/auth/token/", {"username": user.username, "password": PASSWORD})
        .json()["token"]
    )


def with_token(key: str) -> APIClient:
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return api


def test_delete_revokes_the_callers_token():
    key = token_for(UserFactory())

    assert with_token(key).delete("/api/v1/auth/token/").status_code == 204
    assert with_token(key).get("/api/v1/me/").status_code == 401


def test_delete_needs_authentication():
    response = APIClient().delete("/api/v1/auth/token/")

    assert response.status_code == 401
    assert response.json()["error"]["code"] == "not_authenticated"


def test_rotate_gives_a_new_token_and_the_old_one_stops_working():
    old = token_for(UserFactory())

    response = with_token(old).post("/api/v1/auth/token/rotate/")

    new = response.json()["token"]
    assert response.status_code == 200 and new != old
    assert with_token(old).get("/api/v1/me/").status_code == 401
    assert with_token(new).get("/api/v1/me/").status_code == 200


def test_a_new_token_is_issued_after_a_revocation():
    user = UserFactory()
    old = token_for(user)
    with_token(old).delete("/api/v1/auth/token/")

    assert token_for(user) != old


def test_the_password_change_page_changes_the_password_and_revokes_the_token(client):
    user = UserFactory()
    key = token_for(user)
    client.force_login(user)

    response = client.post(
        "/accounts/password/",
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )

    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)
    assert with_token(key).get("/api/v1/me/").status_code == 401
    assert client.get("/accounts/profile/").status_code == 200  # still signed in here


def test_a_wrong_old_password_changes_nothing(client):
    user = UserFactory()
    key = token_for(user)
    client.force_login(user)

    response = client.post(
        "/accounts/password/",
        {"old_password": "wrong", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )

    assert response.status_code == 400
    user.refresh_from_db()
    assert user.check_password(PASSWORD)
    assert with_token(key).get("/api/v1/me/").status_code == 200


def test_the_profile_links_to_the_password_change_page(client):
    client.force_login(UserFactory())

    assert 'href="/accounts/password/"' in client.get("/accounts/profile/").content.decode()
