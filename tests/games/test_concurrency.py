"""Many submits for the same turn at once, on PostgreSQL: exactly one applies, the others
get a stale-version error, and the log has no gap and no duplicate. From threads of one
process (sharing its state cache) and from two processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from django.db import connection, connections

from games import errors, services
from games import state as table_state
from games.models import Table, TableAction
from tests.games.helpers import current, started_table
from tests.integration.conftest import ci

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _postgres() -> None:
    if connection.vendor != "postgresql":
        message = "row-lock concurrency needs PostgreSQL: set DATABASE_URL=postgres://…"
        if ci():
            pytest.fail(f"CI is set: {message}", pytrace=False)
        pytest.skip(message)


def a_legal_action(table: Any) -> tuple[int, dict[str, Any]]:
    state = current(table) if table.version == 0 else locked_state(table)
    seat = state.match.to_act
    assert seat is not None
    return seat, state.match.legal_actions()[-1].to_dict()


def locked_state(table: Any) -> Any:
    with table_state.locked(table) as state:
        return state


def outcome(call: Any) -> str:
    try:
        call()
    except errors.TableError as exc:
        return exc.code
    return "applied"


def test_threads_racing_for_one_turn_apply_exactly_once() -> None:
    table, _ = started_table(humans=3, bots=0)
    seat, action = a_legal_action(table)
    barrier = threading.Barrier(8)
    results: list[str] = []

    def submit(n: int) -> None:
        barrier.wait()
        try:
            results.append(
                outcome(
                    lambda: services.action_submit(
                        table_id=table.pk, seat=seat, action=action, expected_version=0, client_id=f"t{n}"
                    )
                )
            )
        finally:
            connections.close_all()

    threads = [threading.Thread(target=submit, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == ["applied"] + ["stale_version"] * 7


def test_the_log_has_no_gap_and_no_duplicate_after_a_race() -> None:
    table, _ = started_table(humans=3, bots=0)
    barrier = threading.Barrier(6)

    def race(n: int) -> None:
        barrier.wait()
        try:
            for _ in range(6):
                mine = Table.objects.get(pk=table.pk)
                try:
                    seat, action = a_legal_action(mine)
                    services.action_submit(
                        table_id=table.pk, seat=seat, action=action, expected_version=mine.version
                    )
                except errors.TableError:
                    pass  # another thread moved first: try again with the new state
        finally:
            connections.close_all()

    threads = [threading.Thread(target=race, args=(n,)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    table.refresh_from_db()
    versions = list(TableAction.objects.filter(table=table).values_list("version", flat=True).order_by("version"))
    assert versions == list(range(1, table.version + 1)) and table.version > 0


SUBMITTER = """
import json, os, sys, time
import django
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()
from games import errors, services
from games import state as table_state
table_id, seat, version, start, count = json.loads(sys.argv[1])
action = json.loads(sys.argv[2])
time.sleep(max(0.0, start - time.time()))
out = []
for n in range(count):
    try:
        services.action_submit(table_id=table_id, seat=seat, action=action, expected_version=version,
                               client_id=f"p{os.getpid()}-{n}")
        out.append("applied")
    except errors.TableError as exc:
        out.append(exc.code)
print(json.dumps(out))
"""


def test_two_processes_racing_for_one_turn_apply_exactly_once() -> None:
    table, _ = started_table(humans=3, bots=0)
    seat, action = a_legal_action(table)
    settings_db = connection.settings_dict
    env = dict(
        os.environ,
        DATABASE_URL=(
            f"postgres://{settings_db['USER'] or 'postgres'}@{settings_db['HOST'] or '127.0.0.1'}:"
            f"{settings_db['PORT'] or 5432}/{settings_db['NAME']}"
        ),
        DJANGO_DEBUG="true",
        GAMES_SCHEDULER="manual",
    )
    start = time.time() + 4
    args = json.dumps([table.pk, seat, 0, start, 5])
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", SUBMITTER, args, json.dumps(action)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    results: list[str] = []
    for proc in procs:
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err
        results += json.loads(out.strip().splitlines()[-1])
    assert sorted(results) == ["applied"] + ["stale_version"] * 9
