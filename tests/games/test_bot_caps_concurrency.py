"""The caps on tables of bots hold under concurrent requests, on PostgreSQL: twelve
POSTs of one account at once open no more tables than the cap."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connections

from core.errors import ServiceError
from games import services
from games.models import Table
from social import services as social_services
from tests.factories import UserFactory
from tests.integration.conftest import require_postgres_database

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _postgres() -> None:
    require_postgres_database()  # row and advisory locks


def race(calls: list[Callable[[], Any]]) -> Counter[str]:
    """Run ``calls`` at once, each in a thread of its own: how many were started, refused."""
    barrier = threading.Barrier(len(calls))
    outcomes: Counter[str] = Counter()
    lock = threading.Lock()

    def run(call: Callable[[], Any]) -> None:
        barrier.wait()
        try:
            call()
            outcome = "started"
        except ServiceError as exc:
            outcome = exc.code
        finally:
            connections.close_all()
        with lock:
            outcomes[outcome] += 1

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


def test_twelve_concurrent_master_tables_of_one_person_start_one(settings) -> None:
    user = UserFactory()

    outcomes = race(
        [lambda: services.table_play_bots(user=user, level="master", address="192.0.2.1")] * 12
    )

    assert outcomes == {"started": settings.GAMES_MASTER_TABLES_PER_USER, "too_many_bot_tables": 11}
    assert Table.objects.filter(created_by=user).count() == settings.GAMES_MASTER_TABLES_PER_USER


def test_twelve_concurrent_tables_of_one_person_start_only_his_cap(settings) -> None:
    user = UserFactory()

    outcomes = race(
        [lambda: services.table_play_bots(user=user, level="basic", address="192.0.2.2")] * 12
    )

    cap = settings.GAMES_BOT_TABLES_PER_USER
    assert outcomes == {"started": cap, "too_many_bot_tables": 12 - cap}
    assert Table.objects.filter(status=Table.Status.PLAYING, created_by=user).count() == cap


def test_twelve_accounts_racing_from_one_address_start_only_its_cap(settings) -> None:
    settings.GAMES_BOT_TABLES_PER_ADDRESS = 4
    users = [UserFactory() for _ in range(12)]

    outcomes = race(
        [
            (lambda user=user: services.table_play_bots(user=user, address="192.0.2.3"))
            for user in users
        ]
    )

    assert outcomes == {"started": 4, "too_many_bot_tables": 8}
    assert Table.objects.filter(status=Table.Status.PLAYING).count() == 4


def test_challenges_of_master_bots_accepted_together_start_one_table(settings) -> None:
    """Every door goes through the caps: a challenge's table is its challenger's."""
    ann = UserFactory()
    invited = [UserFactory() for _ in range(settings.SOCIAL_CHALLENGES_PER_USER)]
    challenges = [
        social_services.challenge_create(user=ann, invited=[person], bot_level="master")
        for person in invited
    ]

    outcomes = race(
        [
            (
                lambda person=person, c=c: social_services.challenge_answer(
                    user=person, challenge_id=c.pk, accept=True
                )
            )
            for person, c in zip(invited, challenges, strict=True)
        ]
    )

    assert outcomes == {"started": 1, "too_many_bot_tables": len(invited) - 1}
