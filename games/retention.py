"""Data that stays small: a finished match's live rows go, its record stays.

The action log (``TableAction``) is the hot table: one row per action of every table.
Once a match is finished its ``MatchResult.record`` holds every action and every
dealing's seeds (docs/spec.md §8, docs/fair-dealing.md), and everything that reads a
finished match reads that record: the replay, the ratings (``recompute_ratings``), the
tournaments' amendments. So, ``GAMES_LOG_RETENTION_SECONDS`` after the end, the archive
task deletes the match's log rows and its dealings (the revealed seeds are in the
record; the one dealing prepared for a next deal that never came was never used) and
marks the table ``log_archived_at``. The table and seat rows stay (the result, the
ratings and the tournaments point at them); a finished table's state is then rebuilt
from the record (``games.state``).

Before deleting, the record is checked against the rows it replaces: as many actions
as the table's version, each revealed dealing's seeds the same. A table whose record
does not match keeps its rows and is logged.

Chosen over PostgreSQL declarative partitioning by time (docs/capacity.md): a time
partition mixes running and finished matches, so no partition could be dropped while
one long match in it still plays, and the uniqueness the log relies on (one row per
table and version; a client message id applied once) would have to include the
partition key. Deleting by table keeps those constraints and lets autovacuum hand the
space to new rows, so the table's size levels off at what the retention time holds.

Abandoned tables have no result and so no record: their log stays (it is all there is
of the match).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from games import state as table_state

from .models import BY_THE_RULES, Dealing, MatchResult, Table, TableAction

log = logging.getLogger(__name__)

BATCH = 200  # tables per run of the task: each in its own short transaction


@dataclass
class Archived:
    """What one run of :func:`logs_archive` did."""

    tables: int = 0
    actions: int = 0
    dealings: int = 0
    skipped: int = 0


def tables_due(*, now: datetime, retention: timedelta) -> QuerySet[Table]:
    """Finished tables with a result whose log is still there, ended before
    ``now - retention``, oldest first."""
    return Table.objects.filter(
        status=Table.Status.FINISHED,
        log_archived_at__isnull=True,
        finished_at__lt=now - retention,
        result__isnull=False,
    ).order_by("finished_at", "pk")


def record_matches_rows(*, table: Table, record: dict[str, Any], cut: bool = False) -> bool:
    """The record holds what the rows to be deleted hold: one action per version, and
    each revealed dealing's seeds. A match ``cut`` short (the clock, resignations, an
    organiser) keeps its complete deals only: the deal in play was dropped, its cards
    never shown, so its actions and its unrevealed dealing go with the log."""
    actions = sum(len(deal.get("actions", [])) for deal in record.get("deals", []))
    if actions != table.version and not (cut and actions <= table.version):
        return False
    deals = record.get("deals", [])
    for number, server_seed, client_seeds in Dealing.objects.filter(
        table_id=table.pk, revealed=True
    ).values_list("number", "server_seed", "client_seeds"):
        if number >= len(deals):
            return False
        kept = deals[number].get("dealing") or {}
        if kept.get("server_seed") != server_seed or kept.get("client_seeds") != client_seeds:
            return False
    return True


def table_log_archive(*, table_id: int, now: datetime | None = None) -> tuple[int, int] | None:
    """Delete one finished table's log rows and dealings, under its row lock; mark it.
    Returns (actions, dealings) deleted, or None when the table is not finished with a
    result, is archived already, or its record does not match its rows (nothing is
    deleted then)."""
    now = now or timezone.now()
    with transaction.atomic():
        table = Table.objects.select_for_update().filter(pk=table_id).first()
        if (
            table is None
            or table.status != Table.Status.FINISHED
            or table.log_archived_at is not None
            # A duplicate round's table keeps its dealings until the round reveals them.
            or Dealing.objects.filter(table_id=table_id, revealed=False, from_dealer=True)
            .exclude(dealt_at=None)
            .exists()
        ):
            return None
        found = (
            MatchResult.objects.filter(table_id=table_id)
            .values_list("record", "finished_by")
            .first()
        )
        if found is None:
            return None
        record, finished_by = found
        if not record_matches_rows(table=table, record=record, cut=finished_by not in BY_THE_RULES):
            log.error("table %s: its record does not match its log; the log is kept", table_id)
            return None
        actions, _ = TableAction.objects.filter(table_id=table_id).delete()
        dealings, _ = Dealing.objects.filter(table_id=table_id).delete()
        table.log_archived_at = now
        table.save(update_fields=["log_archived_at"])
    # This process's state was built from the rows; the next reader rebuilds it from the
    # record (other processes' states are at the final version already and stay right).
    table_state.forget(table_id)
    return actions, dealings


def logs_archive(
    *, now: datetime | None = None, limit: int = BATCH, budget: float | None = None
) -> Archived:
    """Archive the finished tables whose retention time has passed: ``limit`` of them,
    or, with a ``budget`` in seconds, batch after batch of ``limit`` until none is due
    or the time is spent (the periodic task: the rest wait for its next run)."""
    now = now or timezone.now()
    retention = timedelta(seconds=settings.GAMES_LOG_RETENTION_SECONDS)
    deadline = None if budget is None else time.monotonic() + budget
    done = Archived()
    skipped: list[int] = []
    while True:
        due = tables_due(now=now, retention=retention).exclude(pk__in=skipped)
        batch = list(due.values_list("pk", flat=True)[:limit])
        for table_id in batch:
            counts = table_log_archive(table_id=table_id, now=now)
            if counts is None:
                skipped.append(table_id)
                continue
            done.tables += 1
            done.actions += counts[0]
            done.dealings += counts[1]
            if deadline is not None and time.monotonic() > deadline:
                break
        if len(batch) < limit or deadline is None or time.monotonic() > deadline:
            break
    done.skipped = len(skipped)
    if done.tables or done.skipped:
        log.info(
            "archived the logs of %s finished tables (%s actions, %s dealings); %s skipped",
            done.tables,
            done.actions,
            done.dealings,
            done.skipped,
        )
    return done
