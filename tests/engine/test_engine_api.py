"""The engine as a package: its random source (seeded, unseeded, never leaked) and its
independence from the web stack (docs/spec.md §8; docs/architecture.md#conventions)."""

from __future__ import annotations

import ast
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from games.engine import (
    Match,
    Options,
    replay,
)
from tests.engine.shared import (
    advance,
)

REPO = Path(__file__).resolve().parents[2]
FRAMEWORKS = {"django", "channels", "celery", "rest_framework"}


# --------------------------------------------------------------------------- randomness


def first_deal(match: Match) -> Any:
    return match.to_record()["deals"][0]


def test_unseeded_matches_deal_differently():
    assert first_deal(Match.new()) != first_deal(Match.new())


def test_unseeded_match_ignores_the_global_random_state():
    random.seed(7)
    one = first_deal(Match.new())
    random.seed(7)
    assert first_deal(Match.new()) != one


def test_unseeded_match_draws_from_the_operating_system(monkeypatch):
    calls = []
    real = os.urandom

    def counting(n: int) -> bytes:
        calls.append(n)
        return real(n)

    monkeypatch.setattr(random, "_urandom", counting)
    monkeypatch.setattr(os, "urandom", counting)
    Match.new()
    assert calls, "no secure random bytes were drawn"


def test_seeded_matches_deal_the_same():
    assert first_deal(Match.new(seed=42)) == first_deal(Match.new(seed=42))
    assert first_deal(Match.new(seed="x")) == first_deal(Match.new(seed="x"))
    assert first_deal(Match.new(seed=42)) != first_deal(Match.new(seed=43))


@pytest.mark.parametrize("seed", ["seed-7f3a9c", 918273645])
def test_seed_leaks_into_neither_record_nor_views_nor_replay(seed):
    match = advance(Match.new(Options(players=4), seed=seed), random.Random(1), 40)
    record = match.to_record()
    assert set(record) == {"format", "options", "first_dealer", "deals"}
    texts = [json.dumps(record), json.dumps(replay(record))]
    texts += [json.dumps(match.view(s).to_dict()) for s in (0, 1, 2, 3, None)]
    for text in texts:
        assert str(seed) not in text
        assert "seed" not in text


# --------------------------------------------------------------------------- no web stack


def engine_files() -> list[Path]:
    files = []
    for package in ("engine", "bots"):
        files += sorted((REPO / "games" / package).glob("**/*.py"))
    return files


def imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def test_engine_and_bots_import_no_web_framework():
    files = engine_files()
    assert any(p.parent.name == "engine" for p in files)
    for path in files:
        assert not imported_roots(path) & FRAMEWORKS, path


def test_engine_imports_only_the_standard_library_and_itself():
    for path in (REPO / "games" / "engine").glob("*.py"):
        outside = imported_roots(path) - set(sys.stdlib_module_names) - {"__future__"}
        assert not outside, f"{path.name} imports {outside}"


def test_importing_the_engine_loads_no_web_framework():
    code = (
        "import games.engine, sys; "
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in "
        f"{sorted(FRAMEWORKS)!r}); "
        "assert not loaded, loaded"
    )
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr


def test_cli_replay_of_a_long_random_match_equals_replay_function():
    match = advance(Match.new(Options(players=3, dark=True), seed=5), random.Random(5), 300)
    record = match.to_record()
    done = subprocess.run(
        [sys.executable, "-m", "games.engine", "replay", "-"],
        cwd=REPO,
        input=json.dumps(record),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout
    assert json.loads(done.stdout) == replay(record)
