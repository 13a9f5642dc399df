"""/healthz against the real services, up and down."""

import time
import uuid

import pytest
import redis
from django.db.utils import ConnectionHandler

from config import health
from config.celery import HEARTBEAT_KEY, heartbeat_names
from config.celery import app as celery_app
from config.health import check_database
from games import bot_queue
from tests.integration.conftest import redis_layer

pytestmark = [pytest.mark.integration, pytest.mark.django_db]

CLOSED_PORT_REDIS = "redis://127.0.0.1:1/0"


@pytest.fixture
def celery_broker():
    """Point the project's Celery app at a broker for one test, as the full stack does."""
    saved = (celery_app.conf.task_always_eager, celery_app.conf.broker_url)

    def use(url: str) -> None:
        celery_app.conf.task_always_eager = False
        celery_app.conf.broker_url = url

    yield use
    celery_app.conf.task_always_eager, celery_app.conf.broker_url = saved


def test_healthz_is_ok_with_redis_layer_and_broker(client, settings, redis_url, celery_broker):
    settings.CHANNEL_LAYERS = redis_layer(redis_url, prefix=f"test-{uuid.uuid4().hex[:8]}")
    celery_broker(redis_url)
    for name in heartbeat_names():  # as a running worker and beat leave them
        heartbeat(redis_url, name, seconds_ago=0.5)

    response = client.get("/healthz")

    assert response.status_code == 200, response.json()
    checks = response.json()["checks"]
    assert checks["channel_layer"]["backend"] == "RedisPubSubChannelLayer"
    assert checks["broker"]["mode"] == "broker"


def test_healthz_is_503_when_redis_is_unreachable(client, settings, celery_broker):
    settings.CHANNEL_LAYERS = redis_layer(CLOSED_PORT_REDIS, prefix="test-down")
    celery_broker(CLOSED_PORT_REDIS)

    response = client.get("/healthz")

    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "fail"
    assert body["checks"]["database"]["ok"] is True
    assert body["checks"]["channel_layer"]["ok"] is False
    assert body["checks"]["broker"]["ok"] is False
    assert "error" in body["checks"]["broker"]


def test_database_check_fails_for_an_unreachable_postgresql(postgres_url):
    handler = ConnectionHandler(
        {
            "default": {
                "ENGINE": "django.db.backends.postgresql",
                "HOST": "127.0.0.1",
                "PORT": "1",
                "NAME": "thousand",
                "USER": "postgres",
                "OPTIONS": {"connect_timeout": 2},
            }
        }
    )

    result = check_database(handler["default"])

    assert result["ok"] is False
    assert "OperationalError" in result["error"]


def test_database_check_passes_for_the_real_postgresql(postgres_url):
    from urllib.parse import urlsplit

    parts = urlsplit(postgres_url)
    handler = ConnectionHandler(
        {
            "default": {
                "ENGINE": "django.db.backends.postgresql",
                "HOST": parts.hostname,
                "PORT": str(parts.port or 5432),
                "NAME": parts.path.lstrip("/") or "postgres",
                "USER": parts.username or "postgres",
            }
        }
    )
    connection = handler["default"]
    try:
        result = check_database(connection)
    finally:
        connection.close()

    assert result == {"ok": True, "vendor": "postgresql"}


@pytest.mark.asyncio
async def test_healthz_reuses_its_redis_connections(
    async_client, settings, redis_url, celery_broker, monkeypatch
):
    settings.CHANNEL_LAYERS = redis_layer(redis_url, prefix=f"test-{uuid.uuid4().hex[:8]}")
    celery_broker(redis_url)
    monkeypatch.setattr(health, "check_database", lambda: {"ok": True})  # Redis only here
    for name in heartbeat_names():
        heartbeat(redis_url, name, seconds_ago=0.5)

    def connections() -> int:
        names = [client["name"] for client in redis.Redis.from_url(redis_url).client_list()]
        return names.count(health.redis_client_name())

    assert (await async_client.get("/healthz")).status_code == 200
    after_one = connections()
    for _ in range(5):
        assert (await async_client.get("/healthz")).status_code == 200

    assert 1 <= after_one == connections()


def heartbeat(url: str, name: str, seconds_ago: float) -> None:
    value = repr(time.time() - seconds_ago)
    redis.Redis.from_url(url).set(HEARTBEAT_KEY.format(name=name), value, ex=60)


def test_healthz_is_ok_when_every_periodic_task_ran_lately(
    client, settings, redis_url, celery_broker
):
    settings.GAMES_SCHEDULER = "celery"
    celery_broker(redis_url)
    for name in heartbeat_names():
        heartbeat(redis_url, name, seconds_ago=0.5)

    scheduler = client.get("/healthz").json()["checks"]["scheduler"]

    assert scheduler["ok"] is True
    assert set(scheduler["last_run_seconds_ago"]) == set(heartbeat_names())
    assert {"games.clocks_sweep", "tournaments.tick"} <= set(heartbeat_names())


def test_healthz_is_503_when_the_clock_sweep_stopped(client, settings, redis_url, celery_broker):
    settings.GAMES_SCHEDULER = "celery"
    celery_broker(redis_url)
    for name in heartbeat_names():
        heartbeat(redis_url, name, seconds_ago=0.5)
    heartbeat(redis_url, "games.clocks_sweep", seconds_ago=health.HEARTBEAT_STALE_SECONDS + 5)

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["status"] == "degraded"  # the web itself still serves
    scheduler = response.json()["checks"]["scheduler"]
    assert scheduler["ok"] is False
    assert scheduler["error"].startswith("games.clocks_sweep did not run in time")


def test_healthz_is_503_before_any_periodic_task_ran(client, settings, redis_url, celery_broker):
    settings.GAMES_SCHEDULER = "celery"
    celery_broker(redis_url)
    redis.Redis.from_url(redis_url).delete(
        *[HEARTBEAT_KEY.format(name=name) for name in heartbeat_names()]
    )

    response = client.get("/healthz")

    assert response.status_code == 503
    assert (
        response.json()["checks"]["scheduler"]["last_run_seconds_ago"]["games.clocks_sweep"] is None
    )


def test_healthz_shows_the_bots_queue_delay(
    client, settings, redis_url, celery_broker, monkeypatch
):
    """How long the oldest bot turn due has waited for a worker process: a
    flood of one account's bots that stalls everyone's turns must not look ok."""
    settings.CHANNEL_LAYERS = redis_layer(redis_url, prefix=f"test-{uuid.uuid4().hex[:8]}")
    settings.CELERY_BROKER_URL = redis_url
    celery_broker(redis_url)
    monkeypatch.setattr(bot_queue, "DUE_KEY", f"test:{uuid.uuid4().hex[:8]}:due")
    monkeypatch.setattr(bot_queue, "OWNERS_KEY", f"test:{uuid.uuid4().hex[:8]}:owners")
    monkeypatch.setattr(bot_queue, "JOBS_KEY", f"test:{uuid.uuid4().hex[:8]}:jobs:{{owner}}")
    for name in heartbeat_names():
        heartbeat(redis_url, name, seconds_ago=0.5)
    bot_queue.push(owner="u1", table_id=1, version=1, delay=-3)  # due 3 s ago, not taken

    waiting = client.get("/healthz")
    bot_queue.push(owner="u2", table_id=2, version=1, delay=-(health.BOTS_QUEUE_DELAY_LIMIT + 5))
    overloaded = client.get("/healthz")
    redis.Redis.from_url(redis_url).delete(bot_queue.DUE_KEY, bot_queue.OWNERS_KEY)

    assert waiting.status_code == 200, waiting.json()
    assert 3 <= waiting.json()["checks"]["scheduler"]["bots_queue_delay_seconds"] < 10
    assert overloaded.status_code == 503
    assert overloaded.json()["status"] == "degraded"
    assert "bots' queue" in overloaded.json()["checks"]["scheduler"]["error"]
