"""``scripts/stack`` on this machine: a watched stack, and N web processes.

* A Celery worker killed with SIGKILL is started again; web and beat go on.
* ``--web 3``: three web processes on consecutive ports, one Redis channel layer, one
  PostgreSQL; tables whose players are spread across all three (and whose bots are played
  by the stack's bots pool) play whole deals, and every player sees every version.
"""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async

from games import services
from tests.games.helpers import open_table
from tests.games.test_servers import Client, stack_env, tokens_for  # noqa: F401  (a fixture)
from tests.integration.processes import Stack, alive, free_port, listening, wait_until

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(600),
]


@pytest.fixture
def stack(stack_env: dict[str, str], tmp_path: Path) -> Any:  # noqa: F811  (the imported fixture)
    started: list[Stack] = []

    def run(*args: str, port: int) -> Stack:
        env = {**stack_env, "PORT": str(port), "HAPROXY": "none", "WEB_WORKERS": "1", "BOTS_CONCURRENCY": "1",
               "DJANGO_STATIC_MANIFEST": "false"}  # fmt: skip
        started.append(Stack(env, tmp_path / "stack.log", *args))
        return started[-1]

    yield run
    for one in started:
        one.stop()


@pytest.mark.slow(seconds=20)
def test_stack_starts_a_killed_worker_again_and_keeps_web_and_beat(stack) -> None:
    port = free_port()
    running = stack(port=port)
    assert wait_until(
        lambda: {"web", "beat", "worker-bots"} <= set(running.pids()) and listening(port), 120
    )
    before = running.pids()

    os.kill(before["worker-bots"], signal.SIGKILL)
    restarted = wait_until(lambda: running.pids()["worker-bots"] != before["worker-bots"], 30)

    after = running.pids()
    assert restarted, running.log.read_text()
    assert alive(after["worker-bots"])
    assert after["web"] == before["web"] and alive(after["web"]) and listening(port)
    assert after["beat"] == before["beat"] and alive(after["beat"])


async def play_deal(clients: dict[int, Client]) -> None:
    """Play until the deal is scored: each person acts on their turn, the stack's worker
    plays the bots'; every client waits for every version."""
    anyone = next(iter(clients.values()))
    while True:
        seat = anyone.view["to_act"]
        target = anyone.version + 1
        if seat in clients:
            await clients[seat].act()
        updates = [
            await c.until(lambda m, t=target: m["type"] == "update" and m["version"] >= t)
            for c in clients.values()
        ]
        if any(update["sheet_rows"] for update in updates):
            return


@pytest.mark.slow(seconds=25)
def test_three_web_processes_play_tables_with_players_spread_over_them(stack) -> None:
    port = free_port()
    while any(listening(p) for p in (port + 1, port + 2)):
        port = free_port()
    ports = [port, port + 1, port + 2]
    running = stack("--web", "3", port=port)
    # The stack migrates its database first; on a loaded machine that and three servers'
    # start can take minutes (a failure here says nothing about the servers' play).
    assert wait_until(lambda: all(listening(p) for p in ports), 300), running.log.read_text()
    people, mixed = (
        open_table(humans=3, bots=0, move_seconds=600),
        open_table(humans=2, bots=1, move_seconds=600),
    )
    tables = [(table, users, tokens_for(users)) for table, users in (people, mixed)]

    async def run() -> list[Client]:
        seen: list[Client] = []
        for offset, (table, users, tokens) in enumerate(tables):
            # seat i of table t on server (i + t) % 3: each table spans servers, each server both tables
            clients = {
                i: await Client.connect(ports[(i + offset) % 3], table.pk, token)
                for i, token in enumerate(tokens)
            }
            await database_sync_to_async(services.table_start)(table=table, user=users[0])
            for client in clients.values():
                await client.until(lambda m: m["type"] == "update")
            await play_deal(clients)
            for client in clients.values():
                await client.ws.close()
            seen += clients.values()
        return seen

    clients = asyncio.run(run())
    for client in clients:
        assert client.versions == list(range(client.version + 1))
    assert all(alive(pid) for pid in running.pids().values())
