"""A database built while the social app was called ``club`` keeps its rows: its
``club_*`` tables, constraints, indexes and content types become the social app's."""

from __future__ import annotations

import pytest
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db import connection

from social.models import Follow
from tests.factories import UserFactory
from tests.integration.conftest import require_postgres_database

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def _as_before_the_rename() -> None:
    """The tables, names and migration records the old app left."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
            "AND tablename LIKE 'social\\_%%'"
        )
        for (table,) in cursor.fetchall():
            cursor.execute(
                "SELECT conname FROM pg_constraint WHERE conrelid = %s::regclass "
                "AND conname LIKE 'social\\_%%'",
                [table],
            )
            for (name,) in cursor.fetchall():
                old = "club_" + name.removeprefix("social_")
                cursor.execute(f'ALTER TABLE "{table}" RENAME CONSTRAINT "{name}" TO "{old}"')
            cursor.execute(
                "SELECT indexname FROM pg_indexes WHERE tablename = %s "
                "AND indexname LIKE 'social\\_%%'",
                [table],
            )
            for (name,) in cursor.fetchall():
                old = "club_" + name.removeprefix("social_")
                cursor.execute(f'ALTER INDEX "{name}" RENAME TO "{old}"')
            cursor.execute(
                f'ALTER TABLE "{table}" RENAME TO "club_{table.removeprefix("social_")}"'
            )
        cursor.execute("DELETE FROM django_migrations WHERE app = 'social'")
    ContentType.objects.filter(app_label="social").update(app_label="club")


def _constraint_names(table: str) -> set[str]:
    with connection.cursor() as cursor:
        return set(connection.introspection.get_constraints(cursor, table))


def test_migrating_a_database_from_before_the_rename_keeps_its_rows_and_names() -> None:
    require_postgres_database()
    ann, bob = UserFactory(), UserFactory()
    Follow.objects.create(follower=ann, followed=bob)
    call_command("migrate", "social", "0001", verbosity=0)
    _as_before_the_rename()

    call_command("migrate", "social", verbosity=0)

    assert Follow.objects.filter(follower=ann, followed=bob).exists()
    assert {"social_follow_once", "social_follow_other"} <= _constraint_names("social_follow")
    assert "social_chat_table" in _constraint_names("social_chatmessage")
    assert not ContentType.objects.filter(app_label="club").exists()
