"""The load generator: simulated players in a process of their own, no Django; they speak
docs/protocol.md only (``ws/tables/<id>/``), each picking a random legal action on its turn."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import resource
import sys
import time
import urllib.request
from array import array
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

STALL_SECONDS = 5.0
READY_TIMEOUT = 120.0
READY_SECONDS = 60.0  # how long a table's three clients may wait for their first state


@dataclass
class Spec:
    """What one load-generator process plays (a JSON file written by the orchestrator)."""

    base_urls: list[str]  # http://host:port of each server process (clients spread over them)
    tables: list[dict[str, Any]]  # {"id": …, "tokens": [seat 0, seat 1, seat 2]}
    think: float
    warmup: float
    window: float
    stall: float
    seed: int
    deflate: bool
    target: int
    spread: str = "seats"  # "seats": a table's clients round-robin over the processes; "tables"


@dataclass
class Play:
    """One table being played: the three clients and the bookkeeping of its versions."""

    table_id: int
    tokens: list[str]
    receipts: dict[int, int] = field(default_factory=dict)  # version -> clients that have it
    sent: dict[int, float] = field(default_factory=dict)  # version expected -> send time
    last_progress: float = 0.0
    max_gap: float = 0.0
    moved: bool = False  # progress seen inside the window
    created: float = field(default_factory=time.monotonic)
    over: bool = False
    tasks: list[asyncio.Task[None]] = field(default_factory=list)
    sockets: list[Any] = field(default_factory=list)
    thought: bool = False  # the table's first think time is behind it
    # Its clients that received the table's state (the first frame of a connection): a
    # table counts as open when all three have it, not when their handshakes are done
    # (a server may still be reading the table for sockets it has accepted).
    states: int = 0
    ready: asyncio.Event = field(default_factory=asyncio.Event)


class LoadGen:
    def __init__(self, spec: Spec) -> None:
        self.spec = spec
        self.rng = random.Random(spec.seed)
        self.go = asyncio.Event()
        self.t_go = 0.0
        self.start = self.end = float("inf")
        # 8 bytes a sample (a soak keeps hundreds of thousands: the generator's own memory
        # must not be what grows).
        self.latencies = array("d")
        self.latency_at = array("d")  # seconds into the window of each latency sample
        self.update_bytes = 0  # bytes of the update frames received inside the window
        self.completed = 0  # versions that reached all three clients inside the window
        self.sends = 0
        self.errors: dict[str, int] = {}
        self.states_in_window = 0
        self.gaps = 0  # a client saw a version jump by more than one
        self.finished = 0
        self.replaced = 0
        self.replace_failures: list[str] = []
        self.connect_failures: list[str] = []
        self.plays: list[Play] = []  # the tables being played (a finished one is retired)
        self.retired_max_gap = 0.0  # the longest pause of the retired tables
        self.stalled: set[int] = set()
        self.connections = 0
        self.opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))

    # -- the clients ---------------------------------------------------------------------

    def base_for(self, play: Play, seat: int) -> str:
        bases = self.spec.base_urls
        if self.spec.spread == "tables":
            return bases[play.table_id % len(bases)]  # a table's three clients together
        return bases[(play.table_id * 3 + seat) % len(bases)]

    async def connect(self, play: Play, seat: int) -> Any:
        import websockets

        base = self.base_for(play, seat)
        url = "ws" + base[4:] + f"/ws/tables/{play.table_id}/"
        for attempt in range(5):
            try:
                return await websockets.connect(
                    url,
                    additional_headers={
                        "Authorization": f"Token {play.tokens[seat]}",
                        "Origin": base,
                    },
                    compression="deflate" if self.spec.deflate else None,
                    proxy=None,
                    max_size=2**22,
                    max_queue=None,
                    open_timeout=30,
                    ping_interval=None,
                )
            except (OSError, TimeoutError, websockets.exceptions.WebSocketException) as exc:
                if attempt == 4:
                    raise
                self.connect_failures.append(f"{type(exc).__name__}: {exc}")
                await asyncio.sleep(0.5 * (attempt + 1))
        raise AssertionError("unreachable")

    async def client(self, play: Play, seat: int, ws: Any) -> None:
        """Read every frame; act (after the think time) whenever ``legal`` is not empty."""
        acted_at = -1  # the version we last acted at
        seen = -1  # the last version this client saw
        loads = json.loads
        clock = time.monotonic
        try:
            async for raw in ws:
                now = clock()
                msg = loads(raw)
                kind = msg["type"]
                if kind == "update" or kind == "state":
                    version = msg["version"]
                    if kind == "state":
                        # The first frame of a connection is its state; any other state
                        # (after stale_version, sync or a seat change) is unexpected here.
                        if seen >= 0 and self.start <= now <= self.end:
                            self.states_in_window += 1
                        if seen < 0:
                            play.states += 1
                            if play.states == 3:
                                play.ready.set()
                    else:
                        if self.start <= now <= self.end:
                            self.update_bytes += len(raw)
                        if version <= seen:
                            continue  # already held (it can follow the state on connect)
                        if seen >= 0 and version != seen + 1:
                            self.gaps += 1
                        self.received(play, version, now)
                    seen = version
                    status = msg["table"]["status"]
                    if status != "playing":
                        if status == "finished" and kind == "update":
                            self.match_over(play)
                        return
                    view = msg["view"]
                    legal = view["legal"] if view else None
                    if legal and version > acted_at:
                        acted_at = version
                        action = legal[self.rng.randrange(len(legal))]
                        asyncio.get_running_loop().create_task(self.act(play, ws, version, action))
                elif kind == "error":
                    self.errors[msg["code"]] = self.errors.get(msg["code"], 0) + 1
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a dropped connection: the table will show as stalled
            key = f"client: {type(exc).__name__}"
            self.errors[key] = self.errors.get(key, 0) + 1

    async def act(self, play: Play, ws: Any, version: int, action: dict[str, Any]) -> None:
        if not self.go.is_set():
            await self.go.wait()
        if self.spec.think:
            pause = self.spec.think
            if not play.thought:
                # Players do not all start thinking at the same instant: each table's
                # first pause is longer by a random part of one think time, so the
                # tables' actions spread over the second instead of coming in waves of N.
                play.thought = True
                pause += self.rng.uniform(0, self.spec.think)
            await asyncio.sleep(pause)
        text = json.dumps(
            {
                "type": "action",
                "id": f"{play.table_id}-{version}",
                "version": version,
                "action": action,
            }
        )
        play.sent[version + 1] = time.monotonic()
        self.sends += 1
        try:
            await ws.send(text)
        except Exception as exc:
            key = f"send: {type(exc).__name__}"
            self.errors[key] = self.errors.get(key, 0) + 1

    def received(self, play: Play, version: int, now: float) -> None:
        count = play.receipts.get(version, 0) + 1
        if count < 3:
            play.receipts[version] = count
            return
        # All three clients have this version.
        play.receipts.pop(version, None)
        for old in [v for v in play.receipts if v < version]:
            del play.receipts[old]
        if self.go.is_set():
            self.progress(play, now)
        sent = play.sent.pop(version, None)
        if self.start <= now <= self.end:
            self.completed += 1
            if sent is not None and sent >= self.start:
                self.latencies.append(now - sent)
                self.latency_at.append(now - self.start)

    def progress(self, play: Play, now: float) -> None:
        gap = now - max(play.last_progress, self.t_go)
        if now >= self.start:
            play.max_gap = max(play.max_gap, gap)
            play.moved = play.moved or now <= self.end
        play.last_progress = now

    def match_over(self, play: Play) -> None:
        if play.over:
            return
        play.over = True
        now = time.monotonic()
        if self.start <= now <= self.end:
            self.finished += 1
        if now < self.end:
            asyncio.get_running_loop().create_task(self.replace(play))

    # -- a new table for the players of a finished one (REST API) ------------------------

    def rest(
        self, base: str, token: str, path: str, body: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        request = urllib.request.Request(
            base + path,
            data=json.dumps(body or {}).encode(),
            headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
            method="POST",
        )
        with self.opener.open(request, timeout=30) as response:
            return json.loads(response.read())

    def new_table(self, tokens: list[str]) -> int:
        base = self.spec.base_urls[0]
        body: dict[str, Any] = {"players": 3, "move_seconds": 600}
        if self.spec.target:
            body["options"] = {"target": self.spec.target, "barrel": False}
        table = self.rest(base, tokens[0], "/api/v1/tables/", body)
        for token in tokens[1:]:
            self.rest(base, token, f"/api/v1/tables/{table['id']}/join/")
        self.rest(base, tokens[0], f"/api/v1/tables/{table['id']}/start/")
        return int(table["id"])

    async def replace(self, play: Play) -> None:
        for task in play.tasks:
            if task is not asyncio.current_task():
                task.cancel()
        # The players leave the finished table's page, as a browser would: its sockets
        # close (left open, each server kept every finished table's three connections).
        for ws in play.sockets:
            with contextlib.suppress(Exception):
                await ws.close()
        play.sockets = []
        self.retire(play)
        try:
            # The seats of the REST answer are in join order: seat 0 the creator.
            table_id = await asyncio.to_thread(self.new_table, play.tokens)
            fresh = Play(table_id=table_id, tokens=play.tokens, last_progress=time.monotonic())
            await self.open(fresh)
            self.replaced += 1
        except Exception as exc:
            self.replace_failures.append(f"{type(exc).__name__}: {exc}")

    def retire(self, play: Play) -> None:
        """A finished table leaves the bookkeeping (so that a soak's generator does not
        grow with every match); what the report needs of it is kept."""
        if play.max_gap >= self.spec.stall:
            self.stalled.add(play.table_id)
        self.retired_max_gap = max(self.retired_max_gap, play.max_gap)
        with contextlib.suppress(ValueError):
            self.plays.remove(play)

    async def open(self, play: Play) -> None:
        sockets = await asyncio.gather(*(self.connect(play, seat) for seat in range(3)))
        self.connections += 3
        self.plays.append(play)
        play.sockets = list(sockets)
        loop = asyncio.get_running_loop()
        play.tasks = [
            loop.create_task(self.client(play, seat, ws)) for seat, ws in enumerate(sockets)
        ]
        try:
            await asyncio.wait_for(play.ready.wait(), READY_SECONDS)
        except TimeoutError:
            self.connect_failures.append(f"table {play.table_id}: no state in {READY_SECONDS} s")

    # -- the run ---------------------------------------------------------------------------

    async def watch(self) -> None:
        """Every half second: tables without progress for ``stall`` seconds."""
        while True:
            await asyncio.sleep(0.5)
            now = time.monotonic()
            if now > self.end:
                return
            for play in self.plays:
                if play.over or now < self.start:
                    continue
                self.progress_probe(play, now)

    def progress_probe(self, play: Play, now: float) -> None:
        gap = now - max(play.last_progress, self.t_go)
        play.max_gap = max(play.max_gap, gap)

    async def run(self) -> dict[str, Any]:
        limit = asyncio.Semaphore(64)

        async def open_one(entry: dict[str, Any]) -> None:
            async with limit:
                await self.open(Play(table_id=entry["id"], tokens=entry["tokens"]))

        t0 = time.monotonic()
        await asyncio.gather(*(open_one(entry) for entry in self.spec.tables))
        connect_seconds = time.monotonic() - t0
        print(json.dumps({"ready": True, "connect_seconds": connect_seconds}), flush=True)
        # Wait for the orchestrator's "go" (all generators connected).
        await asyncio.to_thread(sys.stdin.readline)
        self.t_go = time.monotonic()
        self.start = self.t_go + self.spec.warmup
        self.end = self.start + self.spec.window
        for play in self.plays:
            play.last_progress = self.t_go
        self.go.set()
        watcher = asyncio.get_running_loop().create_task(self.watch())
        await asyncio.sleep(self.spec.warmup + self.spec.window + 0.6)
        await watcher
        for play in self.plays:
            # Stalled: ``stall`` seconds without progress seen in the window (a won table
            # stops counting: its players have moved to a new one).
            if play.max_gap >= self.spec.stall:
                self.stalled.add(play.table_id)
        result = {
            "tables": len(self.spec.tables),
            "connections": self.connections,
            "connect_seconds": round(connect_seconds, 2),
            "window": self.spec.window,
            "completed": self.completed,
            "sends": self.sends,
            "latencies": self.latencies.tolist(),
            "latency_at": self.latency_at.tolist(),
            "update_bytes": self.update_bytes,
            "errors": self.errors,
            "states_in_window": self.states_in_window,
            "gaps": self.gaps,
            "finished": self.finished,
            "replaced": self.replaced,
            "replace_failures": self.replace_failures[:5],
            "connect_retries": len(self.connect_failures),
            "stalled": sorted(self.stalled),
            "never_moved": sum(
                1 for p in self.plays if not p.moved and not p.over and p.created < self.start
            ),
            "max_gap": max([self.retired_max_gap, *(p.max_gap for p in self.plays)]),
            "cpu": time.process_time(),
        }
        for play in self.plays:
            for task in play.tasks:
                task.cancel()
        return result


def loadgen_main(spec_path: str) -> None:
    spec = Spec(**json.loads(Path(spec_path).read_text()))
    raise_fd_limit()
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    result = asyncio.run(LoadGen(spec).run())
    # The result (every latency sample) can be far larger than a pipe's buffer: it goes
    # into a file beside the spec, and stdout only says where.
    out = Path(spec_path).with_suffix(".result.json")
    out.write_text(json.dumps(result))
    print(json.dumps({"result_file": str(out)}), flush=True)
    os._exit(0)  # the sockets close with the process; no need to wait for 900 close handshakes


# ======================================================================================


def raise_fd_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = hard if hard != resource.RLIM_INFINITY else 65536
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
