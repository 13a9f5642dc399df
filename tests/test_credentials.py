"""core.credentials.credentials_revoked: the one read every server process checks all its
sockets' credentials with (core.ws_guard). It answers with exactly the credentials that
no longer hold, whatever the number of sockets, on PostgreSQL and on SQLite alike."""

from __future__ import annotations

import pytest
from django.db import connection

from accounts.services import credential_generation_advance
from core.credentials import credentials_revoked
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_only_the_credentials_that_no_longer_hold_are_named():
    kept, advanced, deactivated = UserFactory(), UserFactory(), UserFactory()
    old = advanced.credential_generation
    credential_generation_advance(user=advanced)
    signed_in = deactivated.credential_generation
    deactivated.is_active = False
    deactivated.save(update_fields=["is_active"])
    gone = kept.pk + advanced.pk + deactivated.pk + 1000

    revoked = credentials_revoked(
        held=[
            (kept.pk, kept.credential_generation),
            (advanced.pk, old),
            (advanced.pk, advanced.credential_generation),
            (deactivated.pk, signed_in),
            (gone, 0),
        ]
    )

    assert revoked == {(advanced.pk, old), (deactivated.pk, signed_in), (gone, 0)}


def test_nothing_revoked_is_an_empty_answer_for_many_sockets():
    users = UserFactory.create_batch(300)

    assert credentials_revoked(held=[(u.pk, u.credential_generation) for u in users]) == set()
    assert credentials_revoked(held=[]) == set()


def test_the_same_answer_without_postgresql(monkeypatch):
    kept, advanced = UserFactory(), UserFactory()
    credential_generation_advance(user=advanced)
    monkeypatch.setattr(connection, "vendor", "sqlite")

    assert credentials_revoked(held=[(kept.pk, 0), (advanced.pk, 0)]) == {(advanced.pk, 0)}
