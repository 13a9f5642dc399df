import pytest
from rest_framework.test import APIClient

from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def api() -> APIClient:
    return APIClient()


def test_me_asks_an_anonymous_caller_to_authenticate(api):
    response = api.get("/api/v1/me/")

    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"] == "Token"


def test_token_accepts_the_username_in_any_case(api):
    UserFactory(username="alice")

    response = api.post("/api/v1/auth/token/", {"username": "ALICE", "password": PASSWORD})

    assert response.status_code == 200
    assert response.json()["token"]


def test_token_accepts_a_json_body(api):
    user = UserFactory()

    response = api.post(
        "/api/v1/auth/token/", {"username": user.username, "password": PASSWORD}, format="json"
    )

    assert response.status_code == 200


def test_token_needs_no_csrf_token_from_a_signed_in_browser():
    # The API docs' "Try it out" runs in the browser, with the site's session cookie.
    browser = APIClient(enforce_csrf_checks=True)
    user = UserFactory()
    browser.force_login(user)

    response = browser.post(
        "/api/v1/auth/token/", {"username": user.username, "password": PASSWORD}
    )

    assert response.status_code == 200


def test_token_from_credentials_authenticates_the_api(api):
    user = UserFactory()

    token = api.post(
        "/api/v1/auth/token/", {"username": user.username, "password": PASSWORD}
    ).json()["token"]
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    response = api.get("/api/v1/me/")

    assert response.status_code == 200
    assert response.json()["username"] == user.username


def test_token_with_a_wrong_password_is_refused(api):
    user = UserFactory()

    response = api.post("/api/v1/auth/token/", {"username": user.username, "password": "x"})

    assert response.status_code == 400


def test_me_patch_updates_the_profile(api):
    user = UserFactory()
    api.force_authenticate(user)

    response = api.patch("/api/v1/me/", {"display_name": "Ніна", "country": "UA"}, format="json")

    assert response.status_code == 200
    assert response.json()["display_name"] == "Ніна"
    assert response.json()["country"] == "UA"


def test_me_patch_with_a_bad_country_is_refused_and_changes_nothing(api):
    user = UserFactory(display_name="Before")
    api.force_authenticate(user)

    response = api.patch("/api/v1/me/", {"display_name": "After", "country": "??"}, format="json")

    assert response.status_code == 400
    assert "country" in response.json()["error"]["fields"]
    user.refresh_from_db()
    assert user.display_name == "Before"


@pytest.mark.django_db
def test_signup_by_api_creates_an_account_and_answers_its_token(client):
    response = client.post(
        "/api/v1/auth/signup/",
        {"username": "robot7", "password": "long enough passphrase 7"},
        content_type="application/json",
    )
    assert response.status_code == 201 and response.json()["token"]


@pytest.mark.django_db
def test_signup_by_api_refuses_a_taken_name_in_any_case(client):
    client.post(
        "/api/v1/auth/signup/",
        {"username": "Robot", "password": "long enough passphrase 7"},
        content_type="application/json",
    )
    response = client.post(
        "/api/v1/auth/signup/",
        {"username": "ROBOT", "password": "long enough passphrase 7"},
        content_type="application/json",
    )
    assert response.status_code == 400 and "username" in response.json()["error"]["fields"]
