"""What two people do about each other at the same moment runs one after the other, on
PostgreSQL (``social.services.pairs_lock``): a follow racing a block once survived it in 7
runs of 20, and the blocked person kept seeing the blocker online and at which table.

Each test but the last holds the first write's transaction open until the second,
in another thread, has either finished (no lock: the old race, decided the wrong way
every time) or is waiting on a lock; then the first commits and the second goes on."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, connections, transaction

from core.errors import ServiceError
from social import services
from social.models import Block, Challenge, Follow
from tests.factories import UserFactory
from tests.integration.conftest import require_postgres_database

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _postgres() -> None:
    require_postgres_database()  # advisory locks


def _waits_on_a_lock(pid: int) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", [pid])
        row = cursor.fetchone()
    return row is not None and row[0] == "Lock"


def held_open_while(first: Callable[[], Any], second: Callable[[], Any]) -> None:
    """``first`` in a transaction kept open while ``second`` runs in another thread, until
    ``second`` has finished or waits on a lock; a refusal of either is an outcome."""
    first_done, release, second_started, second_done = (threading.Event() for _ in range(4))
    pid: list[int] = []

    def run_first() -> None:
        try:
            with transaction.atomic():
                first()
                first_done.set()
                release.wait()
        finally:
            first_done.set()
            connections.close_all()

    def run_second() -> None:
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                pid.append(cursor.fetchone()[0])
            second_started.set()
            second()
        except ServiceError:
            pass  # refused: what the test looks at is what is left
        finally:
            second_started.set()
            second_done.set()
            connections.close_all()

    one = threading.Thread(target=run_first)
    one.start()
    first_done.wait()
    two = threading.Thread(target=run_second)
    two.start()
    second_started.wait()
    for _ in range(6000):  # bounded; no assertion on how long it takes
        if second_done.is_set() or (pid and _waits_on_a_lock(pid[0])):
            break
        time.sleep(0.005)
    release.set()
    one.join()
    two.join()


def test_a_follow_made_while_a_block_is_being_made_does_not_survive_it() -> None:
    ann, bob = UserFactory(), UserFactory()

    held_open_while(
        lambda: services.block_create(user=bob, target=ann),
        lambda: services.follow_create(user=ann, target=bob),
    )

    assert not Follow.objects.filter(follower=ann, followed=bob).exists()


def test_a_block_made_while_a_follow_is_being_made_ends_that_follow() -> None:
    ann, bob = UserFactory(), UserFactory()

    held_open_while(
        lambda: services.follow_create(user=ann, target=bob),
        lambda: services.block_create(user=bob, target=ann),
    )

    assert not Follow.objects.filter(follower=ann, followed=bob).exists()


def test_a_challenge_sent_while_a_block_is_being_made_is_refused() -> None:
    ann, bob = UserFactory(), UserFactory()

    held_open_while(
        lambda: services.block_create(user=bob, target=ann),
        lambda: services.challenge_create(user=ann, invited=[bob], players=2),
    )

    assert not Challenge.objects.exists()


def test_a_challenge_accepted_while_a_block_is_being_made_starts_no_table() -> None:
    ann, bob = UserFactory(), UserFactory()
    challenge = services.challenge_create(user=ann, invited=[bob], players=2)

    held_open_while(
        lambda: services.block_create(user=bob, target=ann),
        lambda: services.challenge_answer(user=bob, challenge_id=challenge.pk, accept=True),
    )

    challenge.refresh_from_db()
    assert challenge.table_id is None


def test_follows_and_blocks_sent_together_leave_no_follow_beside_a_block() -> None:
    """The report's own race: both at once, twenty times."""
    pairs = [(UserFactory(), UserFactory()) for _ in range(20)]

    for ann, bob in pairs:
        barrier = threading.Barrier(2)

        def run(call: Callable[[], Any], barrier: threading.Barrier = barrier) -> None:
            barrier.wait()
            try:
                call()
            except ServiceError:
                pass
            finally:
                connections.close_all()

        threads = [
            threading.Thread(
                target=run, args=(lambda a=ann, b=bob: services.follow_create(user=a, target=b),)
            ),
            threading.Thread(
                target=run, args=(lambda a=ann, b=bob: services.block_create(user=b, target=a),)
            ),
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

    survivors = [
        (ann.pk, bob.pk)
        for ann, bob in pairs
        if Follow.objects.filter(follower=ann, followed=bob).exists()
        and Block.objects.filter(blocker=bob, blocked=ann).exists()
    ]
    assert survivors == []
