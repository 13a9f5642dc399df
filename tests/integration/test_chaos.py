"""The fault script's short version (``python -m bench.chaos --short``): the full stack of its own
(Redis, PostgreSQL, two web servers, the worker pools, beat) plays tables while a web
server and the bots' worker are killed, Redis is away and PostgreSQL restarts; every
table finishes, every log is contiguous, every record verifies, no client saw a version
twice with different views, and /healthz said so while a part was away.

The script's own checks are the assertions: it exits 1 and names the problem otherwise.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.integration.processes import ROOT
from tests.services import require_tool

pytestmark = [pytest.mark.integration, pytest.mark.timeout(1500)]


@pytest.mark.slow(seconds=125)
def test_the_stack_survives_each_fault_of_the_short_fault_script(tmp_path) -> None:
    for tool in ("redis-server", "initdb", "pg_ctl"):
        require_tool(tool)
    env = {
        key: value for key, value in os.environ.items() if key not in ("DATABASE_URL", "REDIS_URL")
    }

    done = subprocess.run(
        [sys.executable, "-m", "bench.chaos", "--short", "--start-seconds", "400"], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=1400,
    )  # fmt: skip

    output = done.stdout + done.stderr[-5000:]
    assert done.returncode == 0, output
    assert "faults survived: 4 of 4" in done.stdout, output
