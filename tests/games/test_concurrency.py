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
from games.engine import Action
from games.models import Table, TableAction
from tests.games.helpers import current, started_table
from tests.integration.conftest import require_postgres_database

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _postgres() -> None:
    require_postgres_database()  # row locks


def a_legal_action(table: Any) -> tuple[int, Action]:
    state = current(table) if table.version == 0 else locked_state(table)
    seat = state.match.to_act
    assert seat is not None
    return seat, state.match.legal_actions()[-1]


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
                        table_id=table.pk,
                        seat=seat,
                        action=action,
                        expected_version=0,
                        client_id=f"t{n}",
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
    failures: list[BaseException] = []

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
        except BaseException as exc:  # e.g. a state that holds an action never committed
            failures.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=race, args=(n,)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    table.refresh_from_db()
    versions = list(
        TableAction.objects.filter(table=table)
        .values_list("version", flat=True)
        .order_by("version")
    )
    assert (failures, versions) == ([], list(range(1, table.version + 1))) and table.version > 0


SUBMITTER = """
import json, os, sys, time
import django
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()
from games import errors, services
from games import state as table_state
from games.engine import action_from_dict
table_id, seat, version, start, count = json.loads(sys.argv[1])
action = action_from_dict(json.loads(sys.argv[2]))
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
            [sys.executable, "-c", SUBMITTER, args, json.dumps(action.to_dict())],
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


# -- the optimistic path (games.services._submit_optimistic) and the row lock ------------


def play_one(table: Any, *, client_id: str | None = None) -> int:
    """Submit a legal action for the seat to act at the table's current version."""
    mine = Table.objects.get(pk=table.pk)
    seat, action = a_legal_action(mine)
    applied = services.action_submit(
        table_id=table.pk,
        seat=seat,
        action=action,
        expected_version=mine.version,
        client_id=client_id,
    )
    return applied.version


@pytest.fixture
def other_process() -> Any:
    """A second per-process state cache: ``with other_process():`` acts as another
    server process would, with a state cache of its own."""
    from collections import OrderedDict
    from contextlib import contextmanager

    mine = table_state._cache
    theirs: OrderedDict[int, Any] = OrderedDict()

    @contextmanager
    def use() -> Any:
        table_state._cache = theirs
        try:
            yield
        finally:
            table_state._cache = mine

    yield use
    table_state._cache = mine


def test_a_process_left_behind_by_another_catches_up_and_plays_on(other_process: Any) -> None:
    table, _ = started_table(humans=3, bots=0)
    play_one(table)  # this process now keeps the table's state
    with other_process():
        play_one(table)
        play_one(table)
    version = play_one(table)
    versions = list(
        TableAction.objects.filter(table=table)
        .values_list("version", flat=True)
        .order_by("version")
    )
    assert (version, versions) == (4, [1, 2, 3, 4])


def test_a_version_another_process_has_moved_past_is_stale_here_too(other_process: Any) -> None:
    table, _ = started_table(humans=3, bots=0)
    play_one(table)
    seat, action = a_legal_action(Table.objects.get(pk=table.pk))
    with other_process():
        play_one(table)
    result = outcome(
        lambda: services.action_submit(
            table_id=table.pk, seat=seat, action=action, expected_version=1
        )
    )
    assert (result, Table.objects.get(pk=table.pk).version) == ("stale_version", 2)


def test_a_client_id_applied_by_another_process_is_a_duplicate_here(other_process: Any) -> None:
    table, _ = started_table(humans=3, bots=0)
    play_one(table)
    seat, action = a_legal_action(Table.objects.get(pk=table.pk))
    with other_process():
        services.action_submit(
            table_id=table.pk, seat=seat, action=action, expected_version=1, client_id="c1"
        )
    applied = services.action_submit(
        table_id=table.pk, seat=seat, action=action, expected_version=1, client_id="c1"
    )
    assert (applied.duplicate, TableAction.objects.filter(table=table).count()) == (True, 2)


def test_a_person_marked_away_by_another_process_is_back_when_acting(other_process: Any) -> None:
    from django.db.models import F

    from games.models import Seat

    table, _ = started_table(humans=3, bots=0)
    play_one(table)
    to_act = current(Table.objects.get(pk=table.pk)).match.to_act
    # The clock sweep of another process marked the seat away (and bumped seats_version).
    Seat.objects.filter(table=table, number=to_act).update(away=True, timeouts_in_row=2)
    Table.objects.filter(pk=table.pk).update(seats_version=F("seats_version") + 1)
    play_one(table)
    assert Seat.objects.get(table=table, number=to_act).away is False


def test_a_row_lock_held_elsewhere_never_holds_up_the_table_state() -> None:
    """Lock order: the locked path takes the row lock, then the state's lock; so an action
    waiting for the row must not hold the state's lock meanwhile (that was a deadlock)."""
    from django.db import transaction

    table, _ = started_table(humans=3, bots=0)
    play_one(table)
    state = table_state.cached(table.pk)
    assert state is not None
    held, release = threading.Event(), threading.Event()
    results: list[str] = []

    def hold_the_row() -> None:
        try:
            with transaction.atomic():
                Table.objects.select_for_update().get(pk=table.pk)
                held.set()
                release.wait(10)
        finally:
            connections.close_all()

    def act() -> None:
        try:
            results.append(outcome(lambda: play_one(table)))
        finally:
            connections.close_all()

    holder = threading.Thread(target=hold_the_row)
    holder.start()
    assert held.wait(10)
    actor = threading.Thread(target=act)
    actor.start()
    time.sleep(0.3)  # the actor is now waiting for the row
    free = state.lock.acquire(timeout=5)
    if free:
        state.lock.release()
    release.set()
    holder.join()
    actor.join()
    assert (free, results) == (True, ["applied"])
