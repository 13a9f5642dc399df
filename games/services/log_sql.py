"""The hand-written SQL of the action path and the private Django it needs, in one
place: the optimistic log append (one statement: insert the row and bump the version if
the table is where the player saw it)."""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction

from games import state as table_state
from games.models import Table, TableAction

log = logging.getLogger(__name__)


# The log row's columns that log_append writes, after its table.
_LOGGED = ("version", "dealing", "seat", "action", "source", "client_id", "created_at")


_LOGGED_FIELDS: list[Any] = [TableAction._meta.get_field(name) for name in _LOGGED]


def log_append(row: TableAction, *, seats_version: int, deadline: Any) -> bool:
    """Append ``row`` to the log and move the table to ``row.version`` with its new
    deadline, both or neither, and only if the table is at the version before, playing,
    with ``seats_version``, and its row is not locked by another transaction. One
    PostgreSQL statement: one round trip, no transaction to open."""
    params = log_append_params(row, seats_version=seats_version, deadline=deadline)
    return bool(table_state.execute_prepared(LOG_APPEND_SQL, params).rowcount == 1)


def log_append_params(row: TableAction, *, seats_version: int, deadline: Any) -> list[Any]:
    """The parameters of :data:`LOG_APPEND_SQL` for ``row`` (adapted by Django's fields;
    nothing is read from the database: the owner's write sends them on a connection of
    its own, ``games.owner``)."""
    connection = transaction.get_connection()
    return [
        row.version,
        Table._meta.get_field("deadline").get_db_prep_save(deadline, connection),
        row.table_id,
        row.version - 1,
        seats_version,
        Table.Status.PLAYING.value,
        row.table_id,
        *(f.get_db_prep_save(getattr(row, f.attname), connection) for f in _LOGGED_FIELDS),
    ]


def _log_append_sql() -> str:
    table, log = Table._meta, TableAction._meta

    def col(meta: Any, name: str) -> str:
        return str(meta.get_field(name).column)

    return (
        f"WITH moved AS (UPDATE {table.db_table} SET {col(table, 'version')} = %s, {col(table, 'deadline')} = %s"
        f" WHERE {col(table, 'id')} = %s AND {col(table, 'version')} = %s"
        f" AND {col(table, 'seats_version')} = %s AND {col(table, 'status')} = %s"
        f" AND {col(table, 'id')} = (SELECT {col(table, 'id')} FROM {table.db_table}"
        f" WHERE {col(table, 'id')} = %s FOR UPDATE SKIP LOCKED) RETURNING {col(table, 'id')})"
        f" INSERT INTO {log.db_table} ({', '.join(col(log, f) for f in ('table', *_LOGGED))})"
        f" SELECT {col(table, 'id')}, {', '.join(['%s'] * len(_LOGGED))} FROM moved"
    )


LOG_APPEND_SQL = _log_append_sql()
