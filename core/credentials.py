"""The two reads an open socket's credential is checked with (core.ws_guard): the
account's credential generation (the user model's ``credential_generation``, which
``accounts.services.credential_generation_advance`` moves on at every revocation) and
whether its session still exists.

:func:`credentials_revoked` is what a server process asks every few seconds for all its
sockets at once: on PostgreSQL one statement that sends the (account, generation) pairs
as two arrays and returns only those that no longer hold, so that the answer is empty
when nothing changed and its cost hardly grows with the sockets (the ORM's ``IN`` of a
few hundred ids, built, sent and read back each time, was ~5% of a loaded server's CPU:
docs/benchmarks.md)."""

from __future__ import annotations

from collections.abc import Iterable
from importlib import import_module

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection


def credential_generations(*, user_ids: Iterable[int]) -> dict[int, int]:
    """Each active account's credential generation (accounts.services.
    credential_generation_advance), by id; an account missing here is deactivated or gone.
    One query, however many accounts."""
    return dict(
        get_user_model()
        ._default_manager.filter(pk__in=set(user_ids), is_active=True)
        .values_list("pk", "credential_generation")
    )


def credentials_revoked(*, held: Iterable[tuple[int, int]]) -> set[tuple[int, int]]:
    """Those of the ``(account id, credential generation)`` pairs that no longer hold: the
    account's generation moved on, it is deactivated, or it is gone. One query, whose
    answer is empty when nothing changed."""
    pairs = set(held)
    if not pairs:
        return set()
    if connection.vendor != "postgresql":
        generations = credential_generations(user_ids={user_id for user_id, _g in pairs})
        return {pair for pair in pairs if generations.get(pair[0]) != pair[1]}
    model = get_user_model()
    table = connection.ops.quote_name(model._meta.db_table)
    pk, active, column = (
        connection.ops.quote_name(str(getattr(model._meta.get_field(name), "column", name)))
        for name in ("id", "is_active", "credential_generation")
    )
    ids = [user_id for user_id, _g in pairs]
    held_generations = [generation for _u, generation in pairs]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT h.id, h.generation"
            " FROM unnest(%s::bigint[], %s::bigint[]) AS h(id, generation)"
            f" LEFT JOIN {table} u ON u.{pk} = h.id AND u.{active}"
            f" AND u.{column} = h.generation"
            f" WHERE u.{pk} IS NULL",
            [ids, held_generations],
        )
        return {(int(user_id), int(generation)) for user_id, generation in cursor.fetchall()}


def sessions_existing(*, session_keys: Iterable[str]) -> set[str]:
    """Those of ``session_keys`` whose session still exists and has not expired (signed out,
    or flushed, otherwise). One query with the database's session engine."""
    keys = set(session_keys)
    if not keys:
        return set()
    store = import_module(settings.SESSION_ENGINE).SessionStore
    if hasattr(store, "get_model_class"):  # the database's engines (db, cached_db)
        from django.utils import timezone

        model = store.get_model_class()
        return set(
            model.objects.filter(session_key__in=keys, expire_date__gt=timezone.now()).values_list(
                "session_key", flat=True
            )
        )
    return {key for key in keys if store().exists(key)}
