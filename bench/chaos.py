"""The fault script: the full stack plays on while its parts fail, one at a time.

It starts everything of its own on this machine: a Redis server and a PostgreSQL
instance (``initdb`` in a temporary directory, as the ``postgres`` user when run as
root) on free ports, and ``scripts/stack --web 2`` (two uvicorn servers, the two Celery
pools, beat; the stack starts a process that exits again). Then, for each fault in turn,
it opens a batch of tables — N tables of one scripted person and two bots, and a few
tables of two scripted people and a bot, the people's sockets on different servers — lets them
play, and:

- ``web``: kills one uvicorn server with SIGKILL (its players reconnect to the other);
- ``worker``: kills the Celery worker of the ``bots`` queue with SIGKILL;
- ``redis``: stops Redis for ``--redis-seconds`` (20), then starts it again, empty;
- ``postgres``: stops PostgreSQL for ``--postgres-seconds`` (5), then starts it again.

``/healthz`` of both servers is polled every half second throughout. After each fault it
checks, for every table of the batch: the match finished (within ``--finish-seconds``);
the action log is contiguous (versions 1..n, none twice); the finished record replays
and every deal's fair-dealing check verifies; no client saw one version with two
different views; and ``/healthz`` said not ok while the part was down (for the worker:
when it was down longer than /healthz's heartbeat limit). It prints a table of figures
(faults survived, seconds until ``/healthz`` was ok again and until play went on, actions
played) beside the engine yardstick and the machine's load, and exits 1 if any check
failed.

Run: ``python -m bench.chaos`` (a few minutes) or ``python -m bench.chaos --short`` (the
version the test suite runs: fewer tables, shorter outages). Needs ``redis-server`` and
PostgreSQL's ``initdb``/``pg_ctl`` on PATH (or ``--pg-bin``). docs/reliability.md has the
figures.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.chaos_people import Person
from bench.stack import (
    ROOT,
    PostgresServer,
    RedisServer,
    WebStack,
    free_ports_from,
    healthz,
    listening,
    wait_until,
)

FAULTS = ("web", "worker", "redis", "postgres")


def log(message: str) -> None:
    print(f"[chaos {time.strftime('%H:%M:%S')}] {message}", flush=True)


def _range(text: str) -> tuple[int, int]:
    low, _, high = text.partition("-")
    return int(low), int(high or low)


# ------------------------------------------------------------------ one fault
@dataclass
class Outcome:
    fault: str
    tables: int
    finished: int = 0
    actions: int = 0
    log_gaps: list[int] = field(default_factory=list)
    unverified: list[int] = field(default_factory=list)
    conflicts: int = 0
    reconnects: int = 0
    down_seconds: float = 0.0
    health_seen: set[str] = field(default_factory=set)
    health_required: bool = True
    healthy_after: float | None = None
    play_after: float | None = None
    finish_seconds: float = 0.0
    problems: list[str] = field(default_factory=list)


class Chaos:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.directory = Path(tempfile.mkdtemp(prefix="thousand-chaos-"))
        redis_server = shutil.which("redis-server")
        if redis_server is None:
            raise SystemExit("chaos: redis-server is not on PATH")
        self.redis = RedisServer(
            self.directory, redis_server, free_ports_from(*_range(args.redis_ports))
        )
        self.postgres = PostgresServer(
            self.directory, args.pg_bin, free_ports_from(*_range(args.postgres_ports))
        )
        self.stack: WebStack | None = None
        self.health_log: list[tuple[float, tuple[str, ...]]] = []
        self.stopping = threading.Event()
        self._polling = False

    # -------------------------------------------------------------- setup
    def start(self) -> None:
        log(f"own Redis and PostgreSQL under {self.directory}")
        self.redis.start()
        self.postgres.init()
        self.postgres.start()
        subprocess.run(
            [sys.executable, "scripts/createdb.py", self.postgres.url], cwd=ROOT, check=True
        )
        self.env = {
            **os.environ,
            "DATABASE_URL": self.postgres.url,
            "REDIS_URL": self.redis.url,
            "DJANGO_DEBUG": "false",
            "DJANGO_SECRET_KEY": "chaos-" + uuid.uuid4().hex,
            "DJANGO_STATIC_MANIFEST": "false",
            "GAMES_SCHEDULER": "celery",
            "CELERY_TASK_ALWAYS_EAGER": "false",
            "GAMES_BOT_DELAY": str(self.args.bot_delay),
            "LOG_LEVEL": "WARNING",
            "LOG_FORMAT": "console",
            "WEB_WORKERS": "1",
            "BOTS_CONCURRENCY": "2",
        }
        self.env.pop("CELERY_BROKER_URL", None)
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
            cwd=ROOT,
            env=self.env,
            check=True,
        )
        os.environ.update({k: self.env[k] for k in ("DATABASE_URL", "REDIS_URL", "DJANGO_SECRET_KEY", "DJANGO_DEBUG",
                                                    "GAMES_SCHEDULER", "CELERY_TASK_ALWAYS_EAGER", "LOG_LEVEL")})  # fmt: skip
        os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
        import django

        django.setup()
        stack = self.stack = WebStack(
            self.env,
            self.directory / "stack.log",
            free_ports_from(*_range(self.args.web_ports), count=2),
        )
        log(f"stack starting on ports {stack.ports} (log {stack.log})")
        if not wait_until(
            lambda: all(healthz(p) == "ok" for p in stack.ports), self.args.start_seconds, 1
        ):
            raise SystemExit(f"chaos: the stack did not become healthy; see {stack.log}")

    def stop(self) -> None:
        if self.stack is not None:
            self.stack.stop()
        self.redis.stop()
        self.postgres.stop()
        if not self.args.keep:
            shutil.rmtree(self.directory, ignore_errors=True)

    # -------------------------------------------------------------- tables
    def open_tables(self) -> list[tuple[int, list[Person]]]:
        from django.contrib.auth import get_user_model
        from rest_framework.authtoken.models import Token

        from games import services

        users = get_user_model()
        # No barrel: with it a player near the target must win a contract of his own to end.
        options = {"target": self.args.target, "barrel": False}
        tables: list[tuple[int, list[Person]]] = []
        # People who pass whenever they may and else play at random lose every contract
        # they are forced into: a table of three of them might never reach the target. A
        # bot beside two of them declares and scores.
        shapes = [1] * self.args.tables + [2] * self.args.people_tables
        for number, humans in enumerate(shapes):
            people = [users.objects.create_user(username=f"chaos-{uuid.uuid4().hex[:10]}", password=uuid.uuid4().hex)
                      for _ in range(humans)]  # fmt: skip
            table = services.table_create(
                user=people[0], players=3, options=options, move_seconds=5
            )
            for user in people[1:]:
                services.table_join(table=table, user=user, invite_code=table.invite_code)
            for _ in range(3 - humans):
                services.seat_fill_with_bot(table=table, level="basic", by=people[0])
            persons = [
                Person(table.pk, seat, Token.objects.get_or_create(user=user)[0].key, self.stack.ports,  # type: ignore[union-attr]
                       number + seat, random.Random(table.pk * 10 + seat))
                for seat, user in enumerate(people)
            ]  # fmt: skip
            tables.append((table.pk, persons))
        return tables

    def start_tables(self, tables: list[tuple[int, list[Person]]]) -> None:
        from games import services
        from games.models import Table

        for table_id, _ in tables:
            table = Table.objects.get(pk=table_id)
            services.table_start(table=table, user=table.created_by)

    # -------------------------------------------------------------- the faults
    def inject(self, fault: str, outcome: Outcome) -> tuple[float, float]:
        """Cause ``fault``; return when it began and when the part was back."""
        stack = self.stack
        assert stack is not None
        pids = stack.pids()
        began = time.monotonic()
        if fault == "web":
            os.kill(pids["web1"], signal.SIGKILL)
            wait_until(lambda: stack.pids()["web1"] != pids["web1"], 60)
            wait_until(lambda: listening(stack.ports[0]), 120)
        elif fault == "worker":
            os.kill(pids["worker-bots"], signal.SIGKILL)
            wait_until(lambda: stack.pids()["worker-bots"] != pids["worker-bots"], 60)
            # back when the new worker ran the sweep (a pool process of the killed one may
            # still finish the task it had)
            restarted = time.monotonic()
            wait_until(lambda: self._heartbeat_after(restarted), 120, 0.5)
        elif fault == "redis":
            self.redis.stop()
            time.sleep(self.args.redis_seconds)
            self.redis.start()
        elif fault == "postgres":
            self.postgres.stop()
            time.sleep(self.args.postgres_seconds)
            self.postgres.start()
        return began, time.monotonic()

    def _heartbeat_after(self, began: float) -> bool:
        import redis

        from config.celery import HEARTBEAT_KEY

        try:
            stamp = redis.Redis.from_url(self.redis.url).get(
                HEARTBEAT_KEY.format(name="games.clocks_sweep")
            )
        except redis.RedisError:
            return False
        wall_began = time.time() - (time.monotonic() - began)
        return stamp is not None and float(stamp) > wall_began

    async def poll_health(self) -> None:
        assert self.stack is not None
        while self._polling:
            statuses = await asyncio.gather(
                *(asyncio.to_thread(healthz, p) for p in self.stack.ports)
            )
            self.health_log.append((time.monotonic(), tuple(statuses)))
            await asyncio.sleep(0.5)

    def refresh_channel_layer(self) -> None:
        """Publish until it works: after Redis came back, this process's first publish on
        each connection from before fails (and raises out of the service's on-commit
        broadcast although the service's transaction committed: see docs/reliability.md)."""
        from games import realtime

        for _ in range(20):
            try:
                realtime.send([("chaos.warmup", "{}")])
                return
            except Exception:
                time.sleep(0.5)

    def run_fault(self, fault: str) -> Outcome:
        self.refresh_channel_layer()
        tables = self.open_tables()
        outcome = Outcome(fault, len(tables))
        log(f"{fault}: {len(tables)} tables")

        async def play() -> None:
            stop = asyncio.Event()
            self._polling = True
            tasks = [asyncio.create_task(p.play(stop)) for _, persons in tables for p in persons]
            poller = asyncio.create_task(self.poll_health())
            await asyncio.to_thread(self._db, self.start_tables, tables)
            await asyncio.sleep(self.args.warmup)
            self.health_log.clear()
            began, back = await asyncio.to_thread(self.inject, fault, outcome)
            outcome.down_seconds = back - began
            log(f"{fault}: the part was away {outcome.down_seconds:.1f} s")
            finished = await asyncio.to_thread(self._wait_finished, tables, began, back, outcome)
            outcome.finish_seconds = time.monotonic() - back
            self._polling = False
            stop.set()
            await asyncio.gather(*tasks, poller, return_exceptions=True)
            outcome.finished = finished
            outcome.health_seen = {
                s for t, statuses in self.health_log if began <= t <= back for s in statuses
            }
            healthy = [t for t, statuses in self.health_log if t > back and set(statuses) == {"ok"}]
            outcome.healthy_after = (healthy[0] - back) if healthy else None

        asyncio.run(play())
        self._db(self.check, tables, outcome)
        return outcome

    def _db(self, fn: Any, *args: Any) -> Any:
        """Run ``fn`` with Django's database, again after an error while PostgreSQL comes back."""
        from django.db import OperationalError, close_old_connections, connections

        for attempt in range(30):
            try:
                return fn(*args)
            except OperationalError:
                connections.close_all()
                close_old_connections()
                if attempt == 29:
                    raise
                time.sleep(1)
        return None

    def _wait_finished(
        self, tables: list[tuple[int, list[Person]]], began: float, back: float, outcome: Outcome
    ) -> int:
        from django.db import connections

        from games.models import Table, TableAction

        ids = [table_id for table_id, _ in tables]
        wall_back = time.time() - (time.monotonic() - back)
        end = time.monotonic() + self.args.finish_seconds
        finished = 0
        while time.monotonic() < end and not self.stopping.is_set():
            try:
                finished = Table.objects.filter(pk__in=ids, status=Table.Status.FINISHED).count()
                if outcome.play_after is None:
                    latest = (TableAction.objects.filter(table_id__in=ids).order_by("-created_at")
                              .values_list("created_at", flat=True).first())  # fmt: skip
                    if latest is not None and latest.timestamp() > wall_back:
                        outcome.play_after = max(0.0, latest.timestamp() - wall_back)
            except Exception:
                connections.close_all()
            if finished == len(ids):
                break
            time.sleep(1)
        return finished

    # -------------------------------------------------------------- the checks
    def check(self, tables: list[tuple[int, list[Person]]], outcome: Outcome) -> None:
        from games.engine.fair import verify_record
        from games.models import MatchResult, Table, TableAction

        for table_id, persons in tables:
            table = Table.objects.get(pk=table_id)
            versions = list(
                TableAction.objects.filter(table=table)
                .order_by("version")
                .values_list("version", flat=True)
            )
            outcome.actions += len(versions)
            if versions != list(range(1, len(versions) + 1)):
                outcome.log_gaps.append(table_id)
            if table.status != Table.Status.FINISHED:
                outcome.problems.append(
                    f"table {table_id} did not finish ({table.status}, version {table.version})"
                )
                continue
            result = MatchResult.objects.get(table=table)
            try:
                checks = verify_record(result.record)
            except Exception as exc:
                outcome.unverified.append(table_id)
                outcome.problems.append(f"table {table_id}: record does not verify: {exc}")
                continue
            if not checks or any(check.ok is not True for check in checks):
                outcome.unverified.append(table_id)
            for person in persons:
                outcome.conflicts += len(person.conflicts)
                outcome.reconnects += person.reconnects
        if outcome.log_gaps:
            outcome.problems.append(f"action logs not contiguous: tables {outcome.log_gaps}")
        if outcome.unverified:
            outcome.problems.append(f"records that do not verify: tables {outcome.unverified}")
        if outcome.conflicts:
            outcome.problems.append(
                f"{outcome.conflicts} version(s) seen twice with different views"
            )
        stale_limit = 10.0  # config.health.HEARTBEAT_STALE_SECONDS
        required = outcome.fault != "worker" or outcome.down_seconds > stale_limit + 3
        if required and not (outcome.health_seen - {"ok"}):
            outcome.problems.append(
                f"/healthz said only {sorted(outcome.health_seen)} while the part was away"
            )
        outcome.health_required = required


# ------------------------------------------------------------------ the report
def engine_yardstick() -> str:
    done = subprocess.run(
        [sys.executable, "-m", "bench.engine"], cwd=ROOT, capture_output=True, text=True
    )
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    return lines[-1] if lines else "(bench/engine.py printed nothing)"


def report(
    outcomes: list[Outcome],
    args: argparse.Namespace,
    load: tuple[float, float, float],
    seconds: float,
) -> str:
    rows = [
        "| fault | away (s) | /healthz while away | ok again after (s) | play went on after (s) | tables finished | actions | reconnects | problems |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for o in outcomes:
        seen = ", ".join(sorted(o.health_seen)) or "-"
        if not o.health_required:
            seen += " (shorter than the heartbeat limit)"
        healthy = f"{o.healthy_after:.1f}" if o.healthy_after is not None else "never"
        play = f"{o.play_after:.1f}" if o.play_after is not None else "-"
        rows.append(f"| {o.fault} | {o.down_seconds:.1f} | {seen} | {healthy} | {play} | {o.finished}/{o.tables} "
                    f"| {o.actions} | {o.reconnects} | {len(o.problems)} |")  # fmt: skip
    survived = sum(1 for o in outcomes if not o.problems)
    after = os.getloadavg()
    lines = [
        f"faults survived: {survived} of {len(outcomes)} ({seconds:.0f} s in all)",
        *rows,
        f"settings: {args.tables} tables of one person and two bots, {args.people_tables} of two people and a bot, "
        f"target {args.target}, bot delay {args.bot_delay} s, Redis away {args.redis_seconds} s, "
        f"PostgreSQL away {args.postgres_seconds} s",
        f"machine: {platform.node()}, {os.cpu_count()} CPUs, load average {load[0]:.1f} before, {after[0]:.1f} after",
        f"engine yardstick (bench/engine.py): {engine_yardstick()}",
    ]
    for o in outcomes:
        lines += [f"  {o.fault}: {problem}" for problem in o.problems]
    return "\n".join(lines)


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--faults", default=",".join(FAULTS), help=f"which, in order (default {','.join(FAULTS)})"
    )
    parser.add_argument(
        "--tables",
        type=int,
        default=8,
        help="tables of one scripted person and two bots, per fault",
    )
    parser.add_argument(
        "--people-tables", type=int, default=2, help="tables of two scripted people and a bot"
    )
    parser.add_argument(
        "--target", type=int, default=300, help="the match's target score (short matches)"
    )
    parser.add_argument("--bot-delay", type=float, default=0.2)
    parser.add_argument(
        "--warmup", type=float, default=5.0, help="seconds of play before each fault"
    )
    parser.add_argument("--redis-seconds", type=float, default=20.0)
    parser.add_argument("--postgres-seconds", type=float, default=5.0)
    parser.add_argument(
        "--finish-seconds", type=float, default=300.0, help="how long the tables may take to finish"
    )
    parser.add_argument(
        "--start-seconds", type=float, default=180.0, help="how long the stack may take to start"
    )
    parser.add_argument("--pg-bin", help="directory of initdb and pg_ctl")
    parser.add_argument(
        "--web-ports", default="8380-8399", help="the two web servers' ports come from here"
    )
    parser.add_argument(
        "--redis-ports", default="6390-6399", help="its Redis server's port comes from here"
    )
    parser.add_argument(
        "--postgres-ports", default="5440-5449", help="its PostgreSQL's port comes from here"
    )
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory (logs)")
    parser.add_argument(
        "--short", action="store_true", help="the test suite's version: 1+1 tables, short outages"
    )
    args = parser.parse_args(argv)
    if args.short:
        args.tables, args.people_tables, args.target = 1, 1, 100
        args.redis_seconds, args.postgres_seconds, args.warmup = 5.0, 3.0, 3.0
    unknown = set(args.faults.split(",")) - set(FAULTS)
    if unknown:
        parser.error(f"unknown faults {sorted(unknown)}; choose from {', '.join(FAULTS)}")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    os.chdir(ROOT)
    load = os.getloadavg()
    started = time.monotonic()
    chaos = Chaos(args)
    outcomes: list[Outcome] = []

    def interrupted(signum: int, frame: Any) -> None:
        chaos.stopping.set()  # the threads that wait for tables give up
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, interrupted)
    signal.signal(signal.SIGTERM, interrupted)
    try:
        chaos.start()
        for fault in args.faults.split(","):
            outcome = chaos.run_fault(fault)
            log(
                f"{fault}: {outcome.finished}/{outcome.tables} finished, problems: {outcome.problems or 'none'}"
            )
            outcomes.append(outcome)
    finally:
        chaos.stop()
    print(report(outcomes, args, load, time.monotonic() - started), flush=True)
    return 0 if outcomes and all(not o.problems for o in outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
