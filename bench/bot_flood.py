"""One account floods the bots: another player's wait for his next turn.

The attack: one account sends twelve ``POST /api/v1/tables/play-bots/`` with
``level: master`` at once and plays its own turns at once, so that its bots keep the
bots' worker pool busy; another player, alone at a table with two basic bots, waits for
his next turn. This script starts the full stack on this machine (``scripts/stack``: one
uvicorn, the bots' worker pool of two processes as the stack runs it, the results' pool,
beat; ``bench.stack.WebStack``) on a database and a Redis db of its own (PostgreSQL and Redis must already run),
then measures, for ``--window`` seconds each:

1. quiet: the other player alone (his table of two basic bots);
2. flood: the same, after the attacker's ``--flood`` concurrent POSTs (``--level``).

The two people are played by this process through the services, as the web server
would: each acts (a basic bot's choice) as soon as the table, polled every 20 ms from the
database, says it is his turn. "Wait" is from the other player's action's commit to the
poll that sees his next turn: the two bots' turns in between, each after the bots' pause
(``GAMES_BOT_DELAY``, 0.8 s), and whatever queue they waited in. Printed: the POSTs
accepted and refused, the waits (median, 90th percentile, max) and, when ``/healthz``
reports it, the bots' queue delay it showed during each window.

Run: ``python -m bench.bot_flood`` (about four minutes; figures in docs/benchmarks.md §8)
     ``python -m bench.bot_flood --set GAMES_BOT_TABLES_PER_USER=100 --set
     GAMES_MASTER_TABLES_PER_USER=100`` (the caps lifted: the scheduling alone)
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent

from bench.guard import database_free, redis_free  # noqa: E402
from bench.stack import WebStack  # noqa: E402

POLL_SECONDS = 0.02


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default_db = urlunsplit(
        urlsplit(os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/x"))._replace(
            path="/thousand_bench_bot_flood"
        )
    )
    parser.add_argument("--database-url", default=default_db)
    parser.add_argument(
        "--redis-url", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/9")
    )
    parser.add_argument("--port", type=int, default=8130)
    parser.add_argument("--window", type=float, default=60.0, help="seconds each phase")
    parser.add_argument("--flood", type=int, default=12, help="the attacker's concurrent POSTs")
    parser.add_argument("--level", default="master", help="the attacker's bots")
    parser.add_argument(
        "--set", action="append", default=[], metavar="NAME=VALUE", help="env for the stack"
    )
    parser.add_argument("--label", default="", help="a name for the run in the printout")
    return parser.parse_args(argv)


def healthz(port: int) -> dict[str, Any]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=3) as response:
            return dict(json.load(response))
    except urllib.error.HTTPError as exc:
        return dict(json.load(exc))
    except (OSError, ValueError):
        return {}


def bots_queue_delay(report: dict[str, Any]) -> float | None:
    """The bots' queue delay /healthz shows (None when it shows none)."""
    delay = report.get("checks", {}).get("scheduler", {}).get("bots_queue_delay_seconds")
    return float(delay) if delay is not None else None


class Person:
    """A person at live tables played from this process: acts as soon as it is his turn."""

    def __init__(self, user: Any, name: str) -> None:
        self.user = user
        self.name = name
        self.tables: list[int] = []
        self.waits: list[float] = []
        self.acted_at: float | None = None
        self.stop = threading.Event()
        self.measuring = False
        self.errors = 0

    def play(self, *, replace: bool) -> None:
        from django.db import close_old_connections

        try:
            while not self.stop.is_set():
                for table_id in list(self.tables):
                    self._step(table_id, replace=replace)
                time.sleep(POLL_SECONDS)
        finally:
            close_old_connections()

    def _step(self, table_id: int, *, replace: bool) -> None:
        from django.db import transaction

        from games import errors, services
        from games import state as table_state
        from games.bots import make_bot
        from games.models import Table

        table = Table.objects.filter(pk=table_id).first()
        if table is None or table.status != Table.Status.PLAYING:
            self.tables.remove(table_id)
            if replace:
                self.tables.append(services.table_play_bots(user=self.user, level="basic").pk)
                self.acted_at = None
            return
        with transaction.atomic(), table_state.locked(table) as state:
            seat = state.match.to_act
            if seat is None:
                return
            seats = {s.number: s for s in table.seats.all()}
            if seats[seat].user_id != self.user.pk or seats[seat].played_by_bot:
                return
            view = state.match.view(seat)
        if self.acted_at is not None and self.measuring:
            self.waits.append(time.monotonic() - self.acted_at)
        action = make_bot("basic", seed=table.version).decide(view)
        try:
            services.action_submit(
                table_id=table_id, action=action, expected_version=table.version, user=self.user
            )
        except errors.TableError:
            self.errors += 1
            return
        self.acted_at = time.monotonic()


def flood(port: int, token: str, count: int, level: str) -> list[tuple[int, Any]]:
    """``count`` concurrent POSTs to play-bots; (status, body) of each."""
    url = f"http://127.0.0.1:{port}/api/v1/tables/play-bots/"
    body = json.dumps({"level": level}).encode()

    def post(_: int) -> tuple[int, Any]:
        request = urllib.request.Request(
            url,
            data=body,
            method="POST",
            headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return response.status, json.load(response)
        except urllib.error.HTTPError as exc:
            return exc.code, json.load(exc)

    with concurrent.futures.ThreadPoolExecutor(count) as pool:
        return list(pool.map(post, range(count)))


def summary(waits: list[float]) -> str:
    if not waits:
        return "no turns"
    ordered = sorted(waits)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return (
        f"{len(waits)} turns: median {statistics.median(waits):.2f} s, "
        f"p90 {p90:.2f} s, max {ordered[-1]:.2f} s"
    )


def window(victim: Person, port: int, seconds: float) -> tuple[list[float], list[float]]:
    """Measure the victim's waits for ``seconds``; the bots' queue delay /healthz showed."""
    victim.waits = []
    victim.measuring = True
    delays: list[float] = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        delay = bots_queue_delay(healthz(port))
        if delay is not None:
            delays.append(delay)
        time.sleep(1.0)
    victim.measuring = False
    return list(victim.waits), delays


def main(argv: list[str] | None = None) -> None:
    args = parse(argv)
    import psycopg
    import redis

    name = urlsplit(args.database_url).path.lstrip("/")
    admin_url = urlunsplit(
        urlsplit(args.database_url)._replace(path="/postgres", scheme="postgresql")
    )
    with psycopg.connect(admin_url, autocommit=True) as admin:
        database_free(admin, name)
        admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
    redis_free(args.redis_url)
    redis.Redis.from_url(args.redis_url).flushdb()

    env = {
        **os.environ,
        "DATABASE_URL": args.database_url,
        "REDIS_URL": args.redis_url,
        "PORT": str(args.port),
        "WEB_WORKERS": "1",
        "DJANGO_STATIC_MANIFEST": "false",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
    }
    for item in args.set:
        key, _, value = item.partition("=")
        env[key] = value
    env.pop("CELERY_TASK_ALWAYS_EAGER", None)
    log = Path(f"/tmp/bot_flood-{args.port}.log")
    log.write_text("")
    subprocess.run([sys.executable, "scripts/createdb.py", args.database_url], cwd=ROOT, check=True)
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)  # fmt: skip
    stack = WebStack(env, log, args.port, web=1)
    try:
        deadline = time.monotonic() + 300
        while healthz(args.port).get("status") != "ok":
            if time.monotonic() > deadline or stack.process.poll() is not None:
                raise SystemExit(f"the stack did not come up; see {log}")
            time.sleep(1)
        os.environ.update(
            {
                k: env[k]
                for k in ("DATABASE_URL", "REDIS_URL", *[s.partition("=")[0] for s in args.set])
            }
        )
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
        os.environ["DJANGO_DEBUG"] = "false"
        os.environ.setdefault("DJANGO_SECRET_KEY", "bench-" + "x" * 50)
        import django

        django.setup()
        from django.contrib.auth import get_user_model

        from accounts.services import token_get_or_create
        from games import services

        users = get_user_model().objects
        victim = Person(users.create_user(username="other_player", password="x" * 12), "other")
        attacker = Person(users.create_user(username="flooder", password="x" * 12), "flooder")
        token = token_get_or_create(user=attacker.user).key
        victim.tables.append(services.table_play_bots(user=victim.user, level="basic").pk)
        threads = [
            threading.Thread(target=victim.play, kwargs={"replace": True}, daemon=True),
            threading.Thread(target=attacker.play, kwargs={"replace": False}, daemon=True),
        ]
        for thread in threads:
            thread.start()
        time.sleep(3)  # the first deal
        quiet, quiet_delays = window(victim, args.port, args.window)
        answers = flood(args.port, token, args.flood, args.level)
        accepted = [body["id"] for status, body in answers if status == 201]
        refused = sorted(
            {
                f"{status} {body.get('error', {}).get('code')}"
                for status, body in answers
                if status != 201
            }
        )
        attacker.tables.extend(accepted)
        flooded, flood_delays = window(victim, args.port, args.window)
        victim.stop.set()
        attacker.stop.set()
        for thread in threads:
            thread.join(10)
    finally:
        stack.stop()

    def delay_text(values: list[float]) -> str:
        if not values:
            return "not shown"
        return f"median {statistics.median(values):.2f} s, max {max(values):.2f} s"

    print(f"bot flood {args.label}".rstrip() + f": {args.flood} x play-bots level {args.level}, "
          f"windows of {args.window:.0f} s, bots' pause {os.environ.get('GAMES_BOT_DELAY', '0.8')} s, "
          f"load average {os.getloadavg()[0]:.1f}")  # fmt: skip
    print(
        f"  POSTs: {len(accepted)} accepted, {len(answers) - len(accepted)} refused {refused or ''}"
    )
    print(
        f"  quiet: the other player's wait {summary(quiet)}; bots' queue delay {delay_text(quiet_delays)}"
    )
    print(
        f"  flood: the other player's wait {summary(flooded)}; bots' queue delay {delay_text(flood_delays)}"
    )
    print(f"  (stack log {log}; the other player's refused actions {victim.errors})")


if __name__ == "__main__":
    main()
