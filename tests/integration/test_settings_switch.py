"""The settings switch between the embedded default and the full stack.

Settings are read once per process, so each case runs Django in a fresh interpreter.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
VARIABLES = ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "CELERY_TASK_ALWAYS_EAGER")

PROBE = """
import asyncio, json, django
django.setup()
from django.conf import settings
from django.db import connection
from channels.layers import get_channel_layer
from config.celery import app
from config.health import health_report
report = asyncio.run(health_report())
print(json.dumps({
    "vendor": connection.vendor,
    "pool": bool(settings.DATABASES["default"].get("OPTIONS", {}).get("pool")),
    "layer": type(get_channel_layer()).__name__,
    "broker": app.conf.broker_url,
    "eager": app.conf.task_always_eager,
    "health": report,
}))
"""


def probe(**variables: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in VARIABLES}
    env.update(variables, DJANGO_SETTINGS_MODULE="config.settings", LOG_LEVEL="WARNING")
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_no_variables_give_the_embedded_default(tmp_path):
    # DATABASE_URL only moves the SQLite file out of the work tree.
    seen = probe(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")

    assert seen["vendor"] == "sqlite"
    assert seen["layer"] == "InMemoryChannelLayer"
    assert seen["broker"] == "memory://localhost/"
    assert seen["eager"] is True
    assert seen["health"]["status"] == "ok", seen["health"]


@pytest.mark.integration
def test_database_and_redis_urls_give_the_full_stack(postgres_url, redis_url):
    seen = probe(DATABASE_URL=postgres_url, REDIS_URL=redis_url)

    assert seen["vendor"] == "postgresql"
    assert seen["pool"] is True
    assert seen["layer"] == "RedisPubSubChannelLayer"
    assert seen["broker"] == redis_url
    assert seen["eager"] is False
    # No worker or beat runs for this probe: the scheduler's check may say so (degraded),
    # or see another test's beat; the web's own services must all answer.
    checks = seen["health"]["checks"]
    assert all(check["ok"] for name, check in checks.items() if name != "scheduler"), checks
    assert checks["scheduler"]["mode"] == "celery"
    assert checks["broker"]["mode"] == "broker"
