"""The fault script's scripted people (``bench/chaos.py``): each plays a random legal action
on its turn over the table socket (docs/protocol.md only), reconnects to the other server
when its socket drops, and keeps every view it saw by version for the checks."""

from __future__ import annotations

import asyncio
import json
import random
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

SILENCE_SECONDS = 15.0  # a playing table sends something every few seconds at least


@dataclass
class Person:
    """One scripted player: plays a random legal action on its turn, reconnects to the
    other server when its socket drops, and remembers every view it saw by version."""

    table_id: int
    seat: int
    token: str
    ports: list[int]
    port_index: int
    rng: random.Random
    views: dict[int, str] = field(default_factory=dict)
    conflicts: list[int] = field(default_factory=list)
    reconnects: int = 0
    actions: int = 0

    async def play(self, stop: asyncio.Event) -> None:
        import websockets

        while not stop.is_set():
            port = self.ports[self.port_index % len(self.ports)]
            try:
                async with websockets.connect(
                    f"ws://127.0.0.1:{port}/ws/tables/{self.table_id}/", open_timeout=5,
                    additional_headers={"Origin": "http://127.0.0.1", "Authorization": f"Token {self.token}"},
                ) as ws:  # fmt: skip
                    await self._session(ws, stop)
            except (TimeoutError, OSError, websockets.WebSocketException):
                pass
            if not stop.is_set():
                self.reconnects += 1
                self.port_index += 1
                await asyncio.sleep(0.5 + self.rng.random())

    async def _session(self, ws: Any, stop: asyncio.Event) -> None:
        heard = time.monotonic()
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), 1.0)
            except TimeoutError:
                if time.monotonic() - heard > SILENCE_SECONDS:
                    return  # a server that lost its channel layer: connect afresh
                continue
            heard = time.monotonic()
            message = json.loads(raw)
            if message.get("type") not in ("state", "update") or message.get("view") is None:
                continue
            version, view = int(message["version"]), message["view"]
            seen = json.dumps(view, sort_keys=True)
            if self.views.setdefault(version, seen) != seen:
                self.conflicts.append(version)
            if view.get("to_act") == self.seat and view.get("legal"):
                await asyncio.sleep(self.rng.uniform(0.02, 0.2))
                action = choose(view["legal"], self.rng)
                await ws.send(json.dumps({"type": "action", "id": uuid.uuid4().hex, "version": version,
                                          "action": action}))  # fmt: skip
                self.actions += 1


def choose(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Pass when passing is legal (the bots then declare and matches stay short), else any
    legal action."""
    passes = [action for action in legal if action.get("type") == "pass"]
    return passes[0] if passes else rng.choice(legal)
