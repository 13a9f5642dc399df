"""Real PostgreSQL and Redis for the integration tests.

Which services answer is found once, before the settings load (tests/services.py). A
test that needs a missing one skips with a message that says how to enable it, unless the
variable CI is set: then it fails.
"""

from urllib.parse import urlsplit

import psycopg
import pytest
from psycopg import sql

from tests.services import POSTGRES, REDIS, ci

__all__ = ["ci", "postgres_url", "redis_layer", "redis_url", "require_postgres_database"]


@pytest.fixture(scope="session")
def redis_url() -> str:
    return REDIS.require()


@pytest.fixture(scope="session")
def postgres_url() -> str:
    """A PostgreSQL database that exists (created on the server if it does not yet)."""
    url = POSTGRES.require()
    parts = urlsplit(url)
    name = parts.path.lstrip("/") or "postgres"
    server = parts._replace(scheme="postgresql", path="/postgres").geturl()
    with psycopg.connect(server, connect_timeout=2, autocommit=True) as conn:
        found = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
        if found.fetchone() is None:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    return url


def require_postgres_database() -> None:
    """Skip (fail under CI) a test that needs the suite's own database to be PostgreSQL."""
    from django.db import connection

    POSTGRES.require()
    assert connection.vendor == "postgresql", (
        "PostgreSQL answers but the suite's database is not it"
    )


def redis_layer(url: str, prefix: str) -> dict[str, object]:
    return {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [{"address": url}], "prefix": prefix},
        }
    }
