"""Adopt the tables of the app this one used to be (``club``), keeping their rows.

A database built before the rename has ``club_*`` tables and the old migrations recorded
under ``club``; 0001 replaces those, so Django counts it as applied there and this step
renames each table, its named constraints and indexes to what this app's models say, and
moves the content types (and with them the permissions and admin log entries); the names
Django made up itself (foreign keys, their indexes) stay as they were: Django finds those
by introspection. On a new
database the ``social_*`` tables exist already and nothing is left to do.
"""

from __future__ import annotations

from typing import Any

from django.db import migrations

OLD_PREFIX = "club_"
NEW_PREFIX = "social_"


def _old_name(name: str) -> str:
    return OLD_PREFIX + name.removeprefix(NEW_PREFIX)


def adopt_club_tables(apps: Any, schema_editor: Any) -> None:
    connection = schema_editor.connection
    introspection = connection.introspection
    quote = schema_editor.quote_name
    with connection.cursor() as cursor:
        tables = set(introspection.table_names(cursor))
    for model in apps.get_app_config("social").get_models():
        new_table = model._meta.db_table
        old_table = _old_name(new_table)
        if old_table not in tables or new_table in tables:
            continue
        schema_editor.execute(f"ALTER TABLE {quote(old_table)} RENAME TO {quote(new_table)}")
        if connection.vendor != "postgresql":
            # SQLite keeps constraints in the table's SQL and cannot rename an index:
            # build the table again, as Django does to change one.
            schema_editor._remake_table(model)
            continue
        with connection.cursor() as cursor:
            present = introspection.get_constraints(cursor, new_table)
        for named in [*model._meta.constraints, *model._meta.indexes]:
            old = _old_name(named.name)
            if old not in present:
                continue
            if present[old].get("index") and not (
                present[old].get("unique") or present[old].get("check")
            ):
                schema_editor.execute(f"ALTER INDEX {quote(old)} RENAME TO {quote(named.name)}")
            else:
                schema_editor.execute(
                    f"ALTER TABLE {quote(new_table)} RENAME CONSTRAINT {quote(old)} "
                    f"TO {quote(named.name)}"
                )
    content_type = apps.get_model("contenttypes", "ContentType")
    if not content_type.objects.filter(app_label="social").exists():
        content_type.objects.filter(app_label="club").update(app_label="social")


class Migration(migrations.Migration):
    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("social", "0001_initial"),
    ]

    operations = [migrations.RunPython(adopt_club_tables, migrations.RunPython.noop)]
