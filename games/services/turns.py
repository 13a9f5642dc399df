"""Whose turn it is at a live table: the table's seats (kept with its state between
actions) and when the seat to act runs out of time. Read by the one path of actions, the
broadcast that schedules the next turn and the clock, below all three."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings

from games import state as table_state
from games.models import Seat, Table


def table_seats(table: Table, state: table_state.TableState) -> list[Seat]:
    """The table's seats in seat order, kept with the state between actions and read
    again only when ``table.seats_version`` says they changed."""
    if state.seats is None or state.seats_version != table.seats_version:
        state.seats = list(
            Seat.objects.filter(table_id=table.pk).select_related("user").order_by("number")
        )
        state.seats_version = table.seats_version
    return state.seats


def turn_deadline(table: Table, state: table_state.TableState, seats: list[Seat], now: Any) -> Any:
    """When the seat to act runs out of time. For a seat a bot plays it is a safety net:
    the sweep plays for it if its scheduled turn got lost (a worker died)."""
    seat = state.match.to_act
    if seat is None or table.status != Table.Status.PLAYING:
        return None
    if seats[seat].played_by_bot:
        return now + timedelta(seconds=settings.GAMES_BOT_DELAY + settings.GAMES_BOT_GRACE)
    return now + timedelta(seconds=table.move_seconds)
