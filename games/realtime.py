"""Sending to the websockets of a table: every seat has its own group and spectators
share one, so a message meant for one seat never reaches another seat's connection, not
even inside the channel layer. The sending itself is ``core.realtime``'s.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from core.realtime import after_sent, from_here, hand_over, send

__all__ = [
    "LOBBY_GROUP",
    "after_sent",
    "delivered_here",
    "from_here",
    "seat_group",
    "send",
    "send_views",
]

LOBBY_GROUP = "lobby"

# The tables this process owns (games.owner): their updates go straight to this
# process's own sockets; the value says whether other processes watch the table too
# (then they are published to them as well).
delivered_here: dict[int, Callable[[], bool]] = {}


def seat_group(table_id: int, seat: int | None) -> str:
    return f"table.{table_id}.spectators" if seat is None else f"table.{table_id}.seat{seat}"


def send_views(
    table_id: int,
    views: Iterable[tuple[int | None, str]],
    *,
    seats: list[int | None],
    change: dict[str, Any] | None = None,
) -> None:
    """A table's messages after an action: ``(seat, json text)`` pairs, each seat's
    view to that seat's group (None: the public view to the spectators'). Each message
    says the seat whose view it carries (``to``) and which user held each seat as the
    action committed (``seats``; None: a bot or nobody): a socket forwards it only when
    it is in that seat's group and its user is that seat's holder in ``seats`` (holds
    no seat, for the public view), and reads its state again otherwise
    (``TableConsumer.may_forward``). ``change`` tells the server processes what the
    action changed, so that each keeps its own copy of the table's state in step
    without reading the log (``games.state.follow``); it is never forwarded to a client."""
    extra: dict[str, Any] = {"seats": seats}
    if change is not None:
        extra["change"] = change
    elsewhere = delivered_here.get(table_id)
    hand_over(
        [
            ("table.message", seat_group(table_id, seat), text, {**extra, "to": seat})
            for seat, text in views
        ],
        here=elsewhere is not None,
        elsewhere=elsewhere is None or elsewhere(),
    )
