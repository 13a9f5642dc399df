"""After a change: the views and the score sheet to every seat's and the spectators'
group (after the commit), and what comes next scheduled (a bot's turn, the clock)."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games import bot_queue, realtime, scheduler, selectors
from games import state as table_state
from games.models import Dealing, MatchResult, Seat, Table
from games.services import turns
from games.signals import table_changed

log = logging.getLogger(__name__)


def turn_schedule(
    table: Table,
    state: table_state.TableState,
    seats: list[Seat],
    *,
    after_commit: Callable[[Callable[[], None]], None] = transaction.on_commit,
) -> None:
    """A bot's turn, when a bot plays the seat to act: filed once the update it answers
    is out (``after_commit``: when the caller's transaction commits)."""
    seat = state.match.to_act
    if seat is None or table.status != Table.Status.PLAYING or not seats[seat].played_by_bot:
        return
    table_id, version = table.pk, table.version
    owner = bot_queue.owner_of(created_by_id=table.created_by_id, table_id=table_id)
    after_commit(
        lambda: realtime.after_sent(
            lambda: scheduler.bot_turn_later(table_id, version, settings.GAMES_BOT_DELAY, owner)
        )
    )


def turn_reschedule(table: Table, seats: list[Seat]) -> None:
    """After a seat changed hands (resigned, away, back): a fresh clock for the seat
    to act, and a bot's turn if a bot plays it now."""
    with table_state.locked(table) as state:
        table.deadline = turns.turn_deadline(table, state, seats, timezone.now())
        table.save(update_fields=["deadline"])
        turn_schedule(table, state, seats)


def views_announce(
    table: Table,
    state: table_state.TableState,
    seats: list[Seat],
    events: list[Any],
    *,
    sheet_rows: list[dict[str, Any]],
    revealed: Dealing | None,
    result: MatchResult | None = None,
    change: dict[str, Any] | None = None,
    after_commit: Callable[[Callable[[], None]], None] = transaction.on_commit,
) -> None:
    """After the commit: every seat gets its own view, spectators the public one; the
    ``table`` in it as the REST API shows it (the invite code to the seats only).
    ``change`` goes with the messages to the other server processes, which keep their
    state of the table in step with it (``games.state.follow``)."""
    base = {
        "type": "update",
        "table_id": table.pk,
        "version": table.version,
        "events": [table_state.event_to_dict(e) for e in events],
        "sheet_rows": sheet_rows,
        "dealing": selectors.next_dealing(table, state),
        "revealed": [] if revealed is None else [selectors.dealing_revealed(revealed)],
    }
    public = selectors.table_for(table, seats, seated=False, result=result)
    seated = {**public, "invite_code": table.invite_code}
    match = state.match
    # What every seat shares is encoded once; the table (two ways) and each seat's view
    # are spliced in as the last keys (one JSON object per seat).
    shared = json.dumps(base, separators=(",", ":"))[:-1] + ',"table":'
    to_seats = shared + json.dumps(seated, separators=(",", ":")) + ',"view":'
    to_public = shared + json.dumps(public, separators=(",", ":")) + ',"view":'
    views = [
        (
            seat,
            (to_public if seat is None else to_seats)
            + json.dumps(match.view(seat).to_dict(), separators=(",", ":"))
            + "}",
        )
        for seat in (*range(table.players), None)
    ]
    # Who holds each seat as this action commits (the seats the write was checked
    # against): a connection forwards a seat's view only when its user holds that seat.
    holders: list[int | None] = [None] * table.players
    for s in seats:
        holders[s.number] = s.user_id
    after_commit(lambda: realtime.send_views(table.pk, views, seats=holders, change=change))


def seats_announce(table: Table) -> None:
    """Seats or status changed: connections re-read the table, the lobby refreshes."""
    table_id = table.pk
    Table.objects.filter(pk=table_id).update(seats_version=F("seats_version") + 1)
    text = json.dumps({"type": "refresh", "table_id": table_id})

    def send() -> None:
        groups = [realtime.seat_group(table_id, s) for s in (*range(table.players), None)]
        realtime.send([(g, text) for g in groups] + [(realtime.LOBBY_GROUP, text)], "table.refresh")
        table_changed.send(sender=Table, table_id=table_id)

    transaction.on_commit(send)
