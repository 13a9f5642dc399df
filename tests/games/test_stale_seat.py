"""A socket whose user left his seat never shows that seat's hand, through a real server
(uvicorn, PostgreSQL, Redis), issue 32 item 1.

The message that says the seats changed can be lost (Redis away while a seat changes
hands), so a socket can still be in the group of a seat its user left when the seat's
updates arrive. Two such updates can wait in its channel together: handling the first
made the socket a spectator, and the second was then forwarded as it was, with the new
holder's hand (``None == None``). Here the seats message is dropped on purpose and the
table's updates are held back and published together, as a server publishes the updates
committed while it was busy (``games.realtime``).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from games import realtime, services
from games.engine import Pass
from tests.factories import UserFactory
from tests.games.test_servers import tokens_for
from tests.games.test_ws_hardening import layer_like_the_server as layer_like_the_server
from tests.games.test_ws_hardening import open_socket, receive, receive_type
from tests.games.test_ws_hardening import server as server
from tests.games.test_ws_hardening import stack_env as stack_env

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(240),
]

QUIET = 0.5  # seconds without a frame after which a socket has nothing more to say


class Wire:
    """What this process publishes to the server: the messages about the seats can be
    lost, and table messages held back, then published together in one pipeline."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.publish = realtime.publish
        self.lose = False
        self.holding = False
        self.held: list[realtime.Message] = []
        monkeypatch.setattr(realtime, "publish", self.through)

    async def through(self, batch: list[realtime.Message]) -> None:
        if self.lose:
            batch = [m for m in batch if m[0] != "table.refresh"]
        if self.holding:
            self.held.extend(batch)
            return
        batch, self.held = self.held + batch, []
        await self.publish(batch)

    @contextmanager
    def losing_seats(self) -> Iterator[None]:
        self.lose = True
        try:
            yield
        finally:
            self.lose = False

    def release(self) -> None:
        """Publish what was held, together (a message to a group nobody is in carries it)."""
        self.holding = False
        realtime.send([("stale-seat.release", "{}")])


async def frames_until_quiet(ws: Any) -> list[dict[str, Any]]:
    frames = []
    while True:
        try:
            frames.append(json.loads(await asyncio.wait_for(ws.recv(), QUIET)))
        except TimeoutError:
            return frames


def seen(frame: dict[str, Any]) -> tuple[str, int | None, list[str] | None]:
    """A frame as (type, the seat of its view, the hand in it)."""
    view = frame.get("view") or {}
    return frame["type"], view.get("seat"), view.get("hand")


def test_two_queued_updates_of_a_seat_its_user_left_are_never_forwarded(
    server: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    creator, leaver, taker = (UserFactory() for _ in range(3))
    table = services.table_create(user=creator, players=3, move_seconds=600)
    services.table_join(table=table, user=leaver)  # seat 1
    (token,) = tokens_for([leaver])
    wire = Wire(monkeypatch)
    loop = asyncio.new_event_loop()
    try:
        ws = loop.run_until_complete(open_socket(server, table.pk, token))
        first = loop.run_until_complete(receive_type(ws, "state"))
        with wire.losing_seats():  # the socket is never told that its user left seat 1
            services.table_leave(table=table, user=leaver)
            services.table_join(table=table, user=taker)  # seat 1 again
            services.seat_fill_with_bot(table=table, level="basic", by=creator)
            wire.holding = True
            # Dealer 2: seat 0 opens with the forced bid, then seat 1, the taker's, is to act.
            services.table_start(table=table, user=creator, first_dealer=2)
        services.action_submit(table_id=table.pk, user=taker, action=Pass(), expected_version=0)
        wire.release()  # two updates of seat 1 reach the leaver's socket together
        frames = [loop.run_until_complete(receive(ws)) for _ in range(2)]
        frames += loop.run_until_complete(frames_until_quiet(ws))
        loop.run_until_complete(ws.close())
    finally:
        loop.close()
    assert first["seat"] == 1
    # Each update of seat 1 is dropped, and the socket reads the state as it is: a spectator's.
    assert [seen(f) for f in frames] == [("state", None, None), ("state", None, None)]
