"""Every numeric table option is bounded by docs/rules.md and the OpenAPI schema;
a free seat is null in the schema as in the answers."""

import pytest
import yaml
from rest_framework.test import APIClient

from games.models import Table
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def api() -> APIClient:
    api = APIClient()
    api.force_authenticate(UserFactory())
    return api


@pytest.mark.parametrize("target", [10**40, 99, 100_001, 0, -1000])
def test_a_target_out_of_bounds_is_malformed_and_opens_nothing(api, target):
    response = api.post("/api/v1/tables/", {"options": {"target": target}}, format="json")

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "malformed"
    assert not Table.objects.exists()


@pytest.mark.parametrize("target", [100, 100_000])
def test_the_bounds_themselves_are_accepted(api, target):
    # Without the barrel: with it a target under 1000 is refused as meaningless.
    options = {"target": target, "barrel": False}
    response = api.post("/api/v1/tables/", {"options": options}, format="json")

    assert response.status_code == 201
    assert response.json()["options"]["target"] == target


def test_the_schema_states_every_options_bounds(client):
    schema = yaml.safe_load(client.get("/api/schema/").content)
    options = schema["components"]["schemas"]["TableCreateRequest"]["properties"]["options"]

    assert options["properties"]["target"] == {"type": "integer", "minimum": 100, "maximum": 100000}
    assert options["additionalProperties"] is False
    assert set(options["properties"]["red_threshold"]["enum"]) == {None, 0, -100, -200, -300, -1000}
    seats = schema["components"]["schemas"]["Table"]["properties"]["seats"]
    assert seats["items"]["nullable"] is True
