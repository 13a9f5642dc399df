"""The plain SQL a table's state needs on every action: the log rows since the state's
version, and running a per-action statement as a PostgreSQL prepared statement
(:func:`execute_prepared`, also used by ``games.services.log_sql``)."""

from __future__ import annotations

import json
from typing import Any

from django.db import connection

from games.models import TableAction


def log_rows(table_id: int, after: int, upto: int) -> list[tuple[int, int, Any, str | None]]:
    """The log rows ``after < version <= upto`` in order. Read on every action that a
    process serves after another process moved the table on: written as plain SQL (the
    ORM's query building costs about as much as the round trip)."""
    if connection.vendor != "postgresql":
        return list(
            TableAction.objects.filter(table_id=table_id, version__gt=after, version__lte=upto)
            .order_by("version")
            .values_list("version", "seat", "action", "client_id")
        )
    rows = execute_prepared(LOG_ROWS_SQL, [table_id, after, upto]).fetchall()
    # Django reads jsonb as text (its JSONField decodes it).
    return [(v, seat, json.loads(action), client_id) for v, seat, action, client_id in rows]


def execute_prepared(sql: str, params: list[Any]) -> Any:
    """Run one of the per-action statements as a prepared statement on the PostgreSQL
    connection Django holds (in its transaction, if one is open): PostgreSQL parses and
    plans it once per pooled connection instead of on every action. Through Django's
    cursor wrapper, so errors come out as Django's (``IntegrityError`` …) and query
    logging and execute wrappers see it. Returns the cursor.

    (Django turns psycopg's automatic preparing off so that transaction-mode poolers
    such as older PgBouncers keep working; behind one of those, use PgBouncer 1.21+ with
    ``max_prepared_statements``.)"""
    connection.ensure_connection()
    cursor = connection._prepare_cursor(_Preparing(connection.connection.cursor()))  # type: ignore[attr-defined]
    cursor.execute(sql, params)
    return cursor


class _Preparing:
    """A psycopg cursor (server-side binding) whose ``execute`` prepares."""

    def __init__(self, cursor: Any) -> None:
        self.cursor = cursor

    def execute(self, sql: str, params: Any = None) -> Any:
        return self.cursor.execute(sql, params, prepare=True)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.cursor, name)


def _log_rows_sql() -> str:
    meta: Any = TableAction._meta

    def col(name: str) -> str:
        return str(meta.get_field(name).column)

    return (
        f"SELECT {col('version')}, {col('seat')}, {col('action')}, {col('client_id')} FROM {meta.db_table}"
        f" WHERE {col('table')} = %s AND {col('version')} > %s AND {col('version')} <= %s"
        f" ORDER BY {col('version')}"
    )


LOG_ROWS_SQL = _log_rows_sql()
