"""The OpenAPI schema behind /api/docs/ and the API description."""

import pytest
import yaml
from django.conf import settings
from django.core.management import call_command
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def schema(client) -> dict:
    return yaml.safe_load(client.get(reverse("api-schema")).content)


def test_schema_validates_without_warnings(tmp_path):
    # Raises CommandError on an invalid schema or on any generator warning.
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "s.yml"))


@pytest.mark.parametrize(
    "media_type", ["application/x-www-form-urlencoded", "multipart/form-data", "application/json"]
)
def test_token_request_asks_only_for_username_and_password(schema, media_type):
    body = schema["paths"]["/api/v1/auth/token/"]["post"]["requestBody"]["content"][media_type]
    request = schema["components"]["schemas"][body["schema"]["$ref"].rsplit("/", 1)[1]]

    assert set(request["properties"]) == {"username", "password"}
    assert set(request["required"]) == {"username", "password"}


def test_token_endpoint_needs_no_authentication(schema):
    assert schema["paths"]["/api/v1/auth/token/"]["post"].get("security", []) in ([], [{}])


def test_schema_has_no_stray_blank_enum(schema):
    assert not [name for name in schema["components"]["schemas"] if "Blank" in name]


def test_every_group_of_endpoints_is_described_and_nothing_more(schema):
    """The description promises only what exists: one TAGS entry per group in use."""
    used = {
        tag
        for operations in schema["paths"].values()
        for operation in operations.values()
        for tag in operation.get("tags", [])
    }
    described = {tag["name"] for tag in settings.SPECTACULAR_SETTINGS["TAGS"]}

    assert used == described


def try_it_out_body(schema: dict, path: str, method: str) -> dict:
    """The body the docs' "Try it out" starts with: each field's example, else its first
    choice, else "string" (as Swagger UI fills it)."""
    content = schema["paths"][path][method]["requestBody"]["content"]["application/json"]
    component = schema["components"]["schemas"][content["schema"]["$ref"].rsplit("/", 1)[1]]
    return {
        name: prop.get("example", prop.get("enum", ["string"])[0])
        for name, prop in component["properties"].items()
        if not prop.get("readOnly")
    }


@pytest.mark.parametrize("format_", ["json", "multipart"])
def test_try_it_out_default_profile_edit_is_accepted(schema, format_):
    api = APIClient()
    api.force_authenticate(UserFactory())

    response = api.patch(
        "/api/v1/me/", try_it_out_body(schema, "/api/v1/me/", "patch"), format=format_
    )

    assert response.status_code == 200, response.json()
