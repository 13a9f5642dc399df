"""Property fuzzing of the whole REST API from its OpenAPI schema ("keep it
so"): Schemathesis generates requests for every operation of ``/api/schema/``, valid and
invalid, as an anonymous caller and as a signed-in player, and checks that

* no answer is a server error (5xx),
* every answer conforms to the schema (status codes the schema documents, bodies, content
  types),
* every error (4xx) has the one shape of docs/protocol.md §2.

Bounded and repeatable: a fixed number of examples per operation, derandomized (the "ci"
Hypothesis profile); the whole file runs in about a minute. ``FUZZ_EXAMPLES`` raises
the number of examples for a longer hunt.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core import signals
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis import checks
from schemathesis.core.failures import Failure

from config.wsgi import application

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "8"))

schema = schemathesis.openapi.from_wsgi("/api/schema/", application)


@schemathesis.check
def errors_have_the_one_shape(ctx: Any, response: Any, case: Any) -> bool | None:
    if response.status_code < 400:
        return None
    try:
        body = response.json()
    except ValueError:
        raise Failure(
            operation=case.operation.label,
            title="An error is not JSON",
            message=response.text[:200],
        ) from None
    error = body.get("error") if isinstance(body, dict) else None
    if not (
        isinstance(body, dict)
        and set(body) == {"error"}
        and isinstance(error, dict)
        and isinstance(error.get("code"), str)
        and isinstance(error.get("message"), str)
        and "ErrorDetail(" not in error["message"]
    ):
        raise Failure(
            operation=case.operation.label,
            title="An error is not in the one shape",
            message=str(body)[:300],
        )
    return True


CHECKS = [
    checks.not_a_server_error,
    checks.response_schema_conformance,
    checks.content_type_conformance,
    errors_have_the_one_shape,
]


@pytest.fixture(autouse=True)
def _keep_the_test_connection() -> Iterator[None]:
    """Schemathesis calls the WSGI application directly: keep Django from closing the
    test's database connection at the end of each request (as Django's test client does)."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture(params=["anonymous", "player"])
def headers(request: pytest.FixtureRequest) -> dict[str, str]:
    if request.param == "anonymous":
        return {}
    from rest_framework.authtoken.models import Token

    from games import services
    from tests.factories import UserFactory

    user = UserFactory()
    # Something to find: an open table of the player's own, a finished-record 409 path.
    services.table_create(user=user, players=3)
    return {"Authorization": f"Token {Token.objects.create(user=user).key}"}


@pytest.mark.django_db
@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_the_api_holds_under_fuzzing(case: Any, headers: dict[str, str]) -> None:
    case.call_and_validate(headers=headers, checks=CHECKS)
