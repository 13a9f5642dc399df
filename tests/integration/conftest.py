"""Real PostgreSQL and Redis for the integration tests.

Each fixture checks that its service answers. When it does not, the test is skipped with
a message that says how to enable it, unless the variable CI is set: then it fails.
"""

import os
from urllib.parse import urlsplit

import psycopg
import pytest
import redis
from psycopg import sql

DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
DEFAULT_POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/postgres"


def ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def unavailable(service: str, url: str, variable: str, error: Exception) -> None:
    message = (
        f"{service} is not reachable at {url} ({type(error).__name__}: {error}). "
        f"Start {service} there or set {variable} to one that runs "
        f"(e.g. `{variable}={url} make test`)."
    )
    if ci():
        pytest.fail(f"CI is set, so this is a failure: {message}", pytrace=False)
    pytest.skip(f"{message} These integration tests fail instead of skipping when CI is set.")


@pytest.fixture(scope="session")
def redis_url() -> str:
    url = os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL
    try:
        redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2).ping()
    except redis.RedisError as error:
        unavailable("Redis", url, "REDIS_URL", error)
    return url


@pytest.fixture(scope="session")
def postgres_url() -> str:
    """A PostgreSQL database that exists (created on the server if it does not yet)."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://", "pgsql://")):
        url = DEFAULT_POSTGRES_URL
    parts = urlsplit(url)
    name = parts.path.lstrip("/") or "postgres"
    server = parts._replace(scheme="postgresql", path="/postgres").geturl()
    try:
        with psycopg.connect(server, connect_timeout=2, autocommit=True) as conn:
            found = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
            if found.fetchone() is None:
                conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    except psycopg.Error as error:
        unavailable("PostgreSQL", url, "DATABASE_URL", error)
    return url


def redis_layer(url: str, prefix: str) -> dict[str, object]:
    return {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [{"address": url}], "prefix": prefix},
        }
    }
