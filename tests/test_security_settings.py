"""The secret key and the HTTPS settings.

Settings are read once per process, so the start-up cases run in a fresh interpreter.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client

ROOT = Path(__file__).resolve().parents[1]
STRONG_KEY = "a-long-random-key-for-this-test-only-" + "q7Zx" * 10


def run_python(code: str, tmp_path: Path, **variables: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "REDIS", "CELERY"))}
    # An empty value also keeps a developer's .env from filling the key in.
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DJANGO_SECRET_KEY="",
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        LOG_LEVEL="WARNING",
    )
    env.update(variables)
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_server_refuses_to_start_without_a_secret_key(tmp_path):
    done = run_python("import config.asgi", tmp_path, DJANGO_DEBUG="false")

    assert done.returncode != 0
    assert "DJANGO_SECRET_KEY is not set and DJANGO_DEBUG is off" in done.stderr


def test_development_server_starts_with_the_development_key(tmp_path):
    done = run_python(
        "import config.asgi; from django.conf import settings; print(settings.SECRET_KEY)",
        tmp_path,
        DJANGO_DEBUG="true",
    )

    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("django-insecure-")


def test_server_starts_with_a_secret_key(tmp_path):
    done = run_python(
        "import config.asgi", tmp_path, DJANGO_DEBUG="false", DJANGO_SECRET_KEY=STRONG_KEY
    )

    assert done.returncode == 0, done.stderr


def test_deploy_check_is_clean_for_production_settings(tmp_path):
    done = run_python(
        "import sys; from django.core.management import execute_from_command_line; "
        "execute_from_command_line(['manage.py', 'check', '--deploy', '--fail-level', 'WARNING'])",
        tmp_path,
        DJANGO_DEBUG="false",
        DJANGO_SECRET_KEY=STRONG_KEY,
        DJANGO_HTTPS="true",
    )

    assert done.returncode == 0, done.stderr + done.stdout


@pytest.mark.django_db
def test_https_redirect_leaves_healthz_reachable_over_http(settings):
    settings.SECURE_SSL_REDIRECT = True
    browser = Client()

    assert browser.get("/").status_code == 301
    assert browser.get("/healthz").status_code == 200
