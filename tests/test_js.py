"""The browser scripts' own tests (``tests/js/``, node's built-in test runner): this runs
``node --test tests/js/`` and fails when they fail.

Without ``node`` on the PATH it skips with a message, unless the variable CI is set: then
it fails (as the integration tests do for a missing service).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.services import ci

ROOT = Path(__file__).resolve().parents[1]


def test_the_scripts_tests_pass_under_node() -> None:
    node = shutil.which("node")
    if node is None:
        message = (
            "Node.js (`node`) is not on the PATH; install Node.js 18 or newer to run tests/js/."
        )
        if ci():
            pytest.fail(f"CI is set, so this is a failure: {message}", pytrace=False)
        pytest.skip(f"{message} It fails instead of skipping when CI is set.")
    run = subprocess.run(
        [node, "--test", "tests/js/"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, f"node --test tests/js/ failed:\n{run.stdout}\n{run.stderr}"
