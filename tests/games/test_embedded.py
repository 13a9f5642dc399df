"""The embedded default (`make run`): SQLite, the in-memory channel layer, eager Celery.
Bot turns still run in the background, after their pause, on the server's own event
loop: a whole deal against two bots plays over a real websocket with no worker."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path
from typing import Any

import pytest
import websockets

from tests.games.test_servers import ORIGIN, ROOT, Process, free_port, wait_for_port

pytestmark = pytest.mark.timeout(180)


@pytest.fixture
def embedded_server(tmp_path: Path) -> Any:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL")
    }
    env.update(
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        DJANGO_DEBUG="true",
        GAMES_BOT_DELAY="0.05",
        LOG_LEVEL="WARNING",
    )
    env.pop("GAMES_SCHEDULER", None)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    port = free_port()
    server = Process(
        [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1", "--port", str(port),
         "--no-access-log"],
        env,
    )  # fmt: skip
    wait_for_port(port)
    yield port
    server.kill()


def post(url: str, body: dict[str, Any], headers: dict[str, str] | None = None) -> Any:
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **(headers or {})},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def test_a_deal_against_two_bots_plays_in_the_embedded_default(embedded_server: int) -> None:
    base = f"http://127.0.0.1:{embedded_server}"
    name = f"p{uuid.uuid4().hex[:8]}"
    token = post(
        f"{base}/api/v1/auth/signup/", {"username": name, "password": "a long passphrase 9"}
    )["token"]
    auth = {"Authorization": f"Token {token}"}
    table = post(f"{base}/api/v1/tables/play-bots/", {}, auth)

    async def play() -> tuple[int, int]:
        url = f"ws://127.0.0.1:{embedded_server}/ws/tables/{table['id']}/"
        bot_moves = 0
        async with websockets.connect(url, additional_headers={**auth, "Origin": ORIGIN}) as ws:
            while True:
                message = json.loads(await asyncio.wait_for(ws.recv(), 30))
                if message["type"] != "state" and message["type"] != "update":
                    continue
                rows = message.get("sheet_rows") or []
                if any(row["outcome"] in ("made", "failed") for row in rows):  # a deal played out
                    return bot_moves, message["version"]
                view = message["view"]
                if message["type"] == "update" and view["to_act"] != 0 and message["events"]:
                    bot_moves += 1
                legal = [a for a in view["legal"] if a["type"] not in ("redeal", "write_off")]
                if legal:
                    await ws.send(json.dumps({"type": "action", "id": uuid.uuid4().hex,
                                              "version": message["version"], "action": legal[-1]}))  # fmt: skip

    bot_moves, version = asyncio.run(play())
    assert bot_moves > 0 and version > 20


def get(url: str, headers: dict[str, str]) -> Any:
    with urllib.request.urlopen(
        urllib.request.Request(url, headers=headers), timeout=10
    ) as response:
        return json.load(response)


def test_the_clock_runs_in_the_embedded_default(embedded_server: int) -> None:
    """Nobody acts for the person: the in-process beat sweeps the clock, a bot plays for
    him on time, and after two timeouts in a row his seat is marked away."""
    base = f"http://127.0.0.1:{embedded_server}"
    token = post(
        f"{base}/api/v1/auth/signup/",
        {"username": f"c{uuid.uuid4().hex[:8]}", "password": "a long passphrase 9"},
    )["token"]
    auth = {"Authorization": f"Token {token}"}
    table = post(f"{base}/api/v1/tables/play-bots/", {"move_seconds": 5}, auth)
    end = time.time() + 90
    while time.time() < end:
        seats = get(f"{base}/api/v1/tables/{table['id']}/", auth)["seats"]
        if seats[0]["away"]:
            break
        time.sleep(1)
    assert seats[0]["away"] is True
