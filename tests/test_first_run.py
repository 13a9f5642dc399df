"""The embedded mode's first run says nothing alarming: ``migrate`` prints no system-check
warning and the first task sent (an analysis, a bot's turn) logs no broker warning.

Settings are read once per process, so each case runs in a fresh interpreter with none of
the service variables set (the embedded default: SQLite, eager Celery)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_embedded(args: list[str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "REDIS", "CELERY"))}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DJANGO_DEBUG="true",
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        LOG_LEVEL="INFO",
    )
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=300, check=False,
    )  # fmt: skip


def test_the_embedded_system_checks_warn_of_nothing(tmp_path):
    # `migrate` runs these same checks first, the database's among them.
    done = run_embedded(["manage.py", "check", "--database", "default"], tmp_path)

    assert done.returncode == 0, done.stderr
    assert "W040" not in done.stdout + done.stderr


SEND_A_TASK = """
import django
django.setup()
from config.celery import ping
ping.delay("hello")
"""


def test_the_first_task_sent_in_the_embedded_mode_logs_no_broker_warning(tmp_path):
    done = run_embedded(["-c", SEND_A_TASK], tmp_path)

    assert done.returncode == 0, done.stderr
    assert "No hostname" not in done.stdout + done.stderr
