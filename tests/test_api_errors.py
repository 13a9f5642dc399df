"""One error shape everywhere under /api/ (docs/protocol.md §2):
``{"error": {"code": …, "message": …}}``, JSON, never an HTML page or a Python repr."""

import pytest
from rest_framework.test import APIClient

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

DEEP = "[" * 50_000


def assert_error(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"error"}
    assert body["error"]["code"] == code
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    assert "ErrorDetail" not in body["error"]["message"]
    assert "{'" not in body["error"]["message"]
    return body["error"]


@pytest.fixture
def api() -> APIClient:
    return APIClient()


@pytest.fixture
def signed_in() -> APIClient:
    api = APIClient()
    api.force_authenticate(UserFactory())
    return api


@pytest.mark.parametrize("path", ["/api/v1/auth/token/", "/api/v1/auth/signup/", "/api/v1/tables/"])
def test_deeply_nested_json_is_a_malformed_400(signed_in, path):
    response = signed_in.post(path, DEEP, content_type="application/json")

    assert_error(response, 400, "malformed")


def test_signup_validation_errors_name_their_fields(api):
    error = assert_error(
        api.post("/api/v1/auth/signup/", {"username": ""}, format="json"), 400, "malformed"
    )

    assert set(error["fields"]) == {"username", "password"}
    assert all(isinstance(m, str) for m in error["fields"]["username"])


def test_wrong_credentials_at_the_token_endpoint(api):
    UserFactory(username="alice")

    assert_error(
        api.post("/api/v1/auth/token/", {"username": "alice", "password": "wrong"}),
        400,
        "malformed",
    )


def test_a_bad_token_is_a_401(api):
    api.credentials(HTTP_AUTHORIZATION="Token nonsense")

    assert_error(api.get("/api/v1/me/"), 401, "authentication_failed")


def test_me_without_authentication_is_a_401(api):
    response = api.get("/api/v1/me/")

    assert_error(response, 401, "not_authenticated")
    assert response["WWW-Authenticate"] == "Token"


@pytest.mark.parametrize(
    "path", ["/api/v1/players/nobody/ratings/", "/api/v1/players/nobody/stats/"]
)
def test_an_unknown_player_is_a_404(api, path):
    assert_error(api.get(path), 404, "not_found")


def test_a_bad_leaderboard_filter_names_the_field(api):
    error = assert_error(api.get("/api/v1/leaderboard/?players=9"), 400, "malformed")

    assert list(error["fields"]) == ["players"]


def test_a_bad_tournament_filter_is_malformed_without_a_repr(api):
    error = assert_error(api.get("/api/v1/tournaments/?status=nope"), 400, "malformed")

    assert error["fields"] == {"status": ["unknown list"]}


def test_an_unknown_tournament_is_a_404(api):
    assert_error(api.get("/api/v1/tournaments/999999/"), 404, "not_found")


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/tables/abc/",
        "/api/v1/tournaments/1x/standings/",
        "/api/v1/nothing/",
        "/api/v1/tables/9999999999999999999999/",
    ],
)
def test_an_unknown_path_or_a_non_integer_id_is_a_json_404(api, path):
    assert_error(api.get(path), 404, "not_found")


def test_a_30_mb_body_is_a_413(signed_in):
    response = signed_in.post("/api/v1/tables/", b"x" * 30_000_000, content_type="application/json")

    assert_error(response, 413, "too_large")


def test_a_wrong_method_is_a_405_in_the_shape(api):
    response = api.delete("/api/v1/leaderboard/")

    assert_error(response, 405, "method_not_allowed")


def test_table_errors_keep_their_codes(signed_in):
    assert_error(signed_in.get("/api/v1/tables/424242/"), 404, "not_found")
