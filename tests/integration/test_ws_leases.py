"""The sockets' leases in a real Redis (core/ws_guard.py): a process whose sockets all
close at once (a restart, a network cut) gives every lease back."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from core import ws_guard

pytestmark = [pytest.mark.asyncio, pytest.mark.integration]


async def test_every_socket_of_a_process_closing_at_once_gives_its_lease_back(
    redis_url: str,
) -> None:
    store = ws_guard._Redis(redis_url)
    key = f"test-leases-{uuid.uuid4().hex}"
    sockets = [f"socket-{n}" for n in range(4 * ws_guard.POOL_CONNECTIONS)]
    taken = await asyncio.gather(*(store.take(socket, [(key, len(sockets))]) for socket in sockets))
    assert taken == [0] * len(sockets)  # 0: taken (else the number of the full count)
    await asyncio.gather(*(store.give_back(socket, [key]) for socket in sockets))
    assert await store.client().zcard(key) == 0
