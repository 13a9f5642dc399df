"""Real servers, real websockets, PostgreSQL and Redis.

* Two ASGI processes behind no balancer: the three players of one table are connected to
  different processes and play a whole deal; each sees every move.
* A server restart mid-deal: the process serving one player is killed and started again;
  the player reconnects, gets the same view (rebuilt from the database) and play goes on.
* A Celery worker killed during a bot's turn: a new worker (with beat) plays it; no move
  and no timeout is lost.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets
from channels.db import database_sync_to_async
from django.db import connection
from rest_framework.authtoken.models import Token

from games import services
from games.engine import Pass
from games.models import Table, TableAction
from tests.games.helpers import current, open_table
from tests.integration.conftest import require_postgres_database

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(240),
]

ROOT = Path(__file__).resolve().parents[2]
ORIGIN = "http://127.0.0.1:8000"


@pytest.fixture
def stack_env(redis_url: str) -> dict[str, str]:
    require_postgres_database()
    db = connection.settings_dict
    return dict(
        os.environ,
        DATABASE_URL=f"postgres://{db['USER'] or 'postgres'}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}",
        REDIS_URL=redis_url,
        DJANGO_DEBUG="false",
        DJANGO_SECRET_KEY="test-servers-" + uuid.uuid4().hex,
        GAMES_SCHEDULER="celery",
        GAMES_BOT_DELAY="0.2",
        CELERY_TASK_ALWAYS_EAGER="false",
        LOG_LEVEL="WARNING",
    )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Process:
    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        self.args, self.env = args, env
        self.proc: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self) -> None:
        self.proc = subprocess.Popen(
            self.args, cwd=ROOT, env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True,
        )  # fmt: skip

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)


def serve(port: int, env: dict[str, str]) -> Process:
    server = Process(
        [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
         "--port", str(port), "--no-access-log", "--lifespan", "on"],
        env,
    )  # fmt: skip
    wait_for_port(port)
    return server


def wait_for_port(port: int, timeout: float = 30) -> None:
    end = time.time() + timeout
    while time.time() < end:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"nothing listens on {port}")


@pytest.fixture
def processes() -> Iterator[list[Process]]:
    started: list[Process] = []
    yield started
    for process in started:
        process.kill()


class Client:
    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.version = -1
        self.view: dict[str, Any] = {}
        self.versions: list[int] = []

    @classmethod
    async def connect(cls, port: int, table_id: int, token: str) -> Client:
        ws = await websockets.connect(
            f"ws://127.0.0.1:{port}/ws/tables/{table_id}/",
            additional_headers={"Origin": ORIGIN, "Authorization": f"Token {token}"},
        )
        client = cls(ws)
        await client.until(lambda m: m["type"] == "state")
        return client

    async def until(self, done: Any) -> dict[str, Any]:
        while True:
            message = json.loads(await asyncio.wait_for(self.ws.recv(), 20))
            if message["type"] in ("state", "update") and message["view"] is not None:
                self.version, self.view = message["version"], message["view"]
                if message["type"] == "update":
                    self.versions.append(message["version"])
            if done(message):
                return message

    async def act(self) -> None:
        action = self.view["legal"][-1]  # the last legal action: passes, the lowest cards…
        await self.ws.send(json.dumps({"type": "action", "id": uuid.uuid4().hex, "version": self.version,
                                       "action": action}))  # fmt: skip


def tokens_for(users: list[Any]) -> list[str]:
    return [Token.objects.get_or_create(user=user)[0].key for user in users]


async def play_deal(clients: list[Client], until_version: int | None = None) -> None:
    """Play until a deal is scored (or the table reaches ``until_version``); every client
    must see every version."""
    while True:
        actor = clients[clients[0].view["to_act"]]
        target = actor.version + 1
        await actor.act()
        updates = [
            await c.until(lambda m, t=target: m["type"] == "update" and m["version"] >= t)
            for c in clients
        ]
        if any(u["sheet_rows"] for u in updates) or (
            until_version is not None and target >= until_version
        ):
            return


@pytest.mark.slow(seconds=20)
def test_players_on_two_server_processes_play_a_whole_deal(
    stack_env: dict[str, str], processes: list[Process]
) -> None:
    table, users = open_table(humans=3, bots=0, move_seconds=600)
    ports = [free_port(), free_port()]
    processes += [serve(port, stack_env) for port in ports]
    tokens = tokens_for(users)

    async def run() -> list[Client]:
        clients = [await Client.connect(ports[i % 2], table.pk, tokens[i]) for i in range(3)]
        await database_sync_to_async(services.table_start)(table=table, user=users[0])
        for client in clients:
            await client.until(lambda m: m["type"] == "update")
        await play_deal(clients)
        for client in clients:
            await client.ws.close()
        return clients

    clients = asyncio.run(run())
    # version 0 is the start (the first deal dealt), then one update per action
    assert all(c.versions == list(range(clients[0].version + 1)) for c in clients)


@pytest.mark.slow(seconds=20)
def test_a_match_survives_a_server_restart_mid_deal(
    stack_env: dict[str, str], processes: list[Process], monkeypatch: pytest.MonkeyPatch
) -> None:
    # One known first deal (its seed and dealer), so that version 6 is always mid-deal:
    # with a random one, a deal could end sooner (a redeal, a write-off) and the restart
    # fall between two deals instead.
    monkeypatch.setattr("games.services.actions.new_server_seed", lambda: bytes(range(32)))
    monkeypatch.setattr("games.services.tables.secrets.randbelow", lambda n: 0)
    table, users = open_table(humans=3, bots=0, move_seconds=600)
    port = free_port()
    server = serve(port, stack_env)
    processes.append(server)
    tokens = tokens_for(users)

    async def run() -> tuple[dict[str, Any], dict[str, Any], Client]:
        clients = [await Client.connect(port, table.pk, token) for token in tokens]
        await database_sync_to_async(services.table_start)(table=table, user=users[0])
        for client in clients:
            await client.until(lambda m: m["type"] == "update")
        await play_deal(clients, until_version=6)
        before = clients[1].view
        server.kill()
        server.start()
        wait_for_port(port)
        again = [await Client.connect(port, table.pk, token) for token in tokens]
        after = again[1].view
        await play_deal(again)
        for client in again:
            await client.ws.close()
        return before, after, again[0]

    before, after, client = asyncio.run(run())
    assert before == after and client.version > 6


def test_a_bot_turn_survives_a_killed_worker(
    stack_env: dict[str, str], processes: list[Process], settings: Any
) -> None:
    settings.GAMES_SCHEDULER = "celery"
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.GAMES_BOT_DELAY = 1.0
    settings.GAMES_BOT_GRACE = 2.0
    from config.celery import app

    app.conf.task_always_eager = False
    app.conf.broker_url = stack_env["REDIS_URL"]
    table, users = open_table(humans=1, bots=2, move_seconds=600)
    worker_args = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "config",
        "worker",
        "--pool",
        "solo",
        "--loglevel",
        "WARNING",
    ]
    first = Process(worker_args, stack_env)
    processes.append(first)
    time.sleep(3)
    services.table_start(table=table, user=users[0])
    table.refresh_from_db()
    if current(table).match.to_act == 0:  # the person speaks first: pass, the bots follow
        services.action_submit(table_id=table.pk, seat=0, action=Pass(), expected_version=0)
    time.sleep(0.5)
    first.kill()  # the bot's task is in the dead worker's hands (acks late)
    processes.append(Process([*worker_args[:5], "worker", "--beat", "--pool", "solo", "--loglevel", "WARNING",
                              "--schedule", f"/tmp/beat-{uuid.uuid4().hex}"], stack_env))  # fmt: skip
    end = time.time() + 60
    while time.time() < end:
        table.refresh_from_db()
        if current(table).match.to_act == 0 or table.status != Table.Status.PLAYING:
            break
        time.sleep(0.5)
    sources = set(
        TableAction.objects.filter(table=table, seat__gt=0).values_list("source", flat=True)
    )
    assert current(table).match.to_act == 0 and sources == {"bot"}
