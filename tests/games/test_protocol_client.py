"""A client written only from docs/protocol.md plays a whole match through a real server
(uvicorn, PostgreSQL, Redis, bots on the server's loop), and everything it received is
held to what the document says:

* REST as §2 shows it: a token, a table with options, two bots, the start;
* §3.1 and §3.4 to the letter: an ``update`` whose version is not above the one held is
  ignored, a gap is answered with ``sync``; the client acts only from ``view.legal``;
* the update that starts the match is newer than the open table's ``state``; ``update``
  versions grow by exactly one; ``revealed`` is a list in ``state`` and ``update`` alike;
  the ``table`` in every frame is the REST API's table (``result``, ``invite_code``);
* the record of the match (§1) verifies (docs/fair-dealing.md).
"""

from __future__ import annotations

import asyncio
import json
import random
import urllib.error
import urllib.request
import uuid
from typing import Any

import pytest
import websockets
from django.contrib.auth.hashers import PBKDF2PasswordHasher

from games.engine.fair import verify_record
from tests.factories import PASSWORD, UserFactory
from tests.games.test_servers import ORIGIN, free_port, serve
from tests.games.test_servers import stack_env as stack_env

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(300),
]


def rest(base: str, method: str, path: str, token: str | None = None, body: Any = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Token {token}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as error:
        raise AssertionError(f"{method} {path}: {error.code} {error.read().decode()}") from None


class DocClient:
    """docs/protocol.md §3, literally."""

    def __init__(self, ws: Any, rng: random.Random) -> None:
        self.ws, self.rng = ws, rng
        self.version: int | None = None  # the version held (of the last state or update taken)
        self.table: dict[str, Any] = {}
        self.view: dict[str, Any] | None = None
        self.frames: list[dict[str, Any]] = []  # everything received, in order
        self.ignored: list[int] = []  # update versions ignored as not newer
        self.acted_at: int | None = None

    async def play(self) -> None:
        while self.table.get("status") not in ("finished", "abandoned"):
            message = json.loads(await asyncio.wait_for(self.ws.recv(), 30))
            self.frames.append(message)
            if message["type"] == "state":
                self.take(message)
            elif message["type"] == "update":
                if self.version is not None and message["version"] <= self.version:
                    self.ignored.append(message["version"])  # "already included: ignore it"
                    continue
                if self.version is not None and message["version"] > self.version + 1:
                    await self.send({"type": "sync"})  # "a client that sees a gap sends sync"
                    continue
                self.take(message)
            elif message["type"] == "error" and message["code"] != "stale_version":
                raise AssertionError(f"the server refused a legal action: {message}")
            else:
                continue
            await self.act()

    def take(self, message: dict[str, Any]) -> None:
        self.version, self.table, self.view = message["version"], message["table"], message["view"]

    async def act(self) -> None:
        legal = (self.view or {}).get("legal") or []
        if self.table["status"] == "playing" and legal and self.acted_at != self.version:
            self.acted_at = self.version
            action = self.rng.choice(legal)  # "offer only what view.legal lists"
            await self.send(
                {
                    "type": "action",
                    "id": uuid.uuid4().hex,
                    "version": self.version,
                    "action": action,
                }
            )

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))


def test_a_client_written_from_the_protocol_document_plays_a_whole_match(
    stack_env: dict[str, str],
) -> None:
    user = UserFactory()
    # Hashed as the server hashes (the tests' own hasher is a fast one the server lacks).
    user.password = PBKDF2PasswordHasher().encode(PASSWORD, PBKDF2PasswordHasher().salt())
    user.save(update_fields=["password"])
    port = free_port()
    server = serve(port, {**stack_env, "GAMES_SCHEDULER": "loop", "GAMES_BOT_DELAY": "0"})
    base = f"http://127.0.0.1:{port}"
    try:
        token = rest(
            base,
            "POST",
            "/api/v1/auth/token/",
            body={"username": user.username, "password": PASSWORD},
        )["token"]
        table = rest(base, "POST", "/api/v1/tables/", token,
                     {"players": 3, "options": {"target": 500, "barrel": False}, "move_seconds": 600})  # fmt: skip
        for _ in range(2):
            rest(base, "POST", f"/api/v1/tables/{table['id']}/bots/", token, {"level": "basic"})

        async def play() -> DocClient:
            async with websockets.connect(
                f"ws://127.0.0.1:{port}/ws/tables/{table['id']}/",
                additional_headers={"Authorization": f"Token {token}", "Origin": ORIGIN},
            ) as ws:
                client = DocClient(ws, random.Random(15))
                first = json.loads(await asyncio.wait_for(ws.recv(), 30))
                client.frames.append(first)
                client.take(first)  # the open table's state
                await asyncio.to_thread(
                    rest, base, "POST", f"/api/v1/tables/{table['id']}/start/", token
                )
                await client.play()
                return client

        client = asyncio.run(play())
        final = rest(base, "GET", f"/api/v1/tables/{table['id']}/", token)
        record = rest(base, "GET", f"/api/v1/tables/{table['id']}/record/", token)
    finally:
        server.kill()

    updates = [f["version"] for f in client.frames if f["type"] == "update"]
    open_state = client.frames[0]
    assert open_state["type"] == "state" and open_state["table"]["status"] == "open"
    assert updates[0] > open_state["version"]
    # An update is "already included" only after a full state that held it: on a busy
    # machine two publishers' updates (a bot's turn, the player's action) can cross, the
    # client sees a gap, syncs (docs/protocol.md §3), and the late one arrives after.
    for version in client.ignored:
        position = next(i for i, f in enumerate(client.frames) if f.get("version") == version
                        and f["type"] == "update")  # fmt: skip
        assert any(f["type"] == "state" and f["version"] >= version
                   for f in client.frames[:position]), version  # fmt: skip
    assert updates == list(range(updates[0], updates[0] + len(updates)))
    frames = [f for f in client.frames if f["type"] in ("state", "update")]
    assert all(isinstance(f["revealed"], list) for f in frames)
    revealed = [r for f in frames for r in f["revealed"]]
    assert revealed and {tuple(sorted(r)) for r in revealed} == {
        ("client_seeds", "commitment", "dealer", "number", "server_seed")
    }
    assert all({"result", "invite_code"} <= set(f["table"]) for f in frames)
    assert (
        client.table == final
        and final["status"] == "finished"
        and final["result"]["winner_seat"] is not None
    )
    checks = verify_record(record)
    assert checks and all(check.ok for check in checks)
