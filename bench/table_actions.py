"""The cost of one action does not grow with the match.

In one process, on PostgreSQL (its own database, ``thousand_bench_actions``, dropped and
migrated at start) with the Redis channel layer (the broadcast after the commit is part of
the cost), this times ``games.services.action_submit`` — the one service path, called as
the websocket consumer calls it, the frame parsed first (``games.messages``) — for:

- **first deal**: the actions of the first deal of freshly started tables;
- **late**: the actions of a deal after ``--late-deals`` (default 30) completed deals of
  tables played that far beforehand (a target of 100 000 points, so no match ends);

in two cache situations:

- **warm**: the per-process state cache (``games.state``) is at the table's version, as
  when one process serves the table;
- **behind by one**: two caches take turns, action by action, so each action first
  catches up the one action that the "other process" applied (as with two ASGI workers,
  or a bot's turn played by a Celery worker).

First-deal and late actions are timed alternately (one of each in turn), so a change in
the machine's load touches both alike. Every simulated player picks a random action from
the legal ones. Printed per cache situation: actions timed; median, mean and 90th
percentile of the wall time in milliseconds; the median CPU time of this process (all its
threads: steadier than wall time on a busy machine); SQL statements per action (mean);
and the late/first ratios of the median wall time, the mean wall time and the median CPU. The issue's bar: a late action within 20% of a first-deal
action (ratio <= 1.20).

Run: ``python -m bench.table_actions`` (about a minute)
     ``python -m bench.table_actions --tables 6 --late-deals 60`` (more samples, longer match)
     ``python -m bench.table_actions --cprofile`` (adds where the time of one action goes)
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import platform
import pstats
import random
import secrets
import statistics
import subprocess
import sys
import time
from collections import OrderedDict
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent

from bench.guard import database_free, redis_free  # noqa: E402


def prepare(args: argparse.Namespace) -> None:
    """A fresh database, migrated; Django set up on it and the bench's Redis db."""
    import psycopg
    from psycopg import sql

    parts = urlsplit(args.database_url)
    name = parts.path.lstrip("/")
    if not name.startswith("thousand_bench"):
        raise SystemExit(
            f"refusing to drop {name!r}: the bench database's name starts with thousand_bench"
        )
    env = {
        "DATABASE_URL": args.database_url,
        "REDIS_URL": args.redis_url,
        "CELERY_BROKER_URL": args.redis_url,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": os.environ.get("DJANGO_SECRET_KEY") or secrets.token_urlsafe(50),
        "LOG_LEVEL": "WARNING",
        # Nothing here is played by a bot; "manual" keeps any scheduled job off the clock.
        "GAMES_SCHEDULER": "manual",
    }
    os.environ.update(env)
    admin = parts._replace(scheme="postgresql", path="/postgres").geturl()
    redis_free(args.redis_url)
    with psycopg.connect(admin, autocommit=True, connect_timeout=5) as conn:
        database_free(conn, name)
        conn.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, check=True
    )
    import django

    django.setup()


class Player:
    """Plays one table through ``action_submit``: a random legal action for the seat to
    act, as the consumer submits it (the action as JSON, a client message id, the user
    whose seat it is: the service finds his seat)."""

    def __init__(self, table_id: int, rng: random.Random, users: list[Any]) -> None:
        self.table_id = table_id
        self.rng = rng
        self.users = users  # by seat
        self.version = 0
        self.sent = 0

    def state(self) -> Any:
        """The table's engine state at its current version, from whichever cache has it
        (the one that applied the last action); read through the first cache if none has
        (untimed)."""
        from games import state as table_state

        for cache in CACHES:
            entry = cache.get(self.table_id)
            if entry is not None and entry.version == self.version:
                return entry
        from games.models import Table

        table_state._cache = CACHES[0]
        with table_state.locked(Table.objects.get(pk=self.table_id)) as entry:
            return entry

    def next_action(self) -> tuple[int, dict[str, Any]]:
        match = self.state().match
        seat = match.to_act
        legal = match.legal_actions()
        return seat, legal[self.rng.randrange(len(legal))].to_dict()

    @property
    def dealing(self) -> int:
        return int(self.state().dealing)

    def submit(self, seat: int, action: dict[str, Any]) -> None:
        from games import messages, services

        self.sent += 1
        text = json.dumps(
            {"type": "action", "id": f"c-{self.sent}", "version": self.version, "action": action}
        )
        message = messages.parse(text, max_size=4096)  # as the consumer parses a frame
        assert isinstance(message, messages.ActionMessage)
        applied = services.action_submit(
            table_id=self.table_id,
            user=self.users[seat],
            action=message.action,
            expected_version=message.version,
            source="human",
            client_id=message.client_id,
        )
        self.version = applied.version


CACHES: list[OrderedDict[int, Any]] = []


class Caches:
    """The per-process state cache, or two of them taking turns (``behind``): the cache
    that serves an action is always one action behind the table."""

    def __init__(self, behind: bool) -> None:
        from games import state as table_state

        self.module = table_state
        self.behind = behind
        self.caches: list[OrderedDict[int, Any]] = [OrderedDict(), OrderedDict()]
        CACHES[:] = self.caches if behind else self.caches[:1]

    def use_for(self, player: Player) -> None:
        index = player.version % 2 if self.behind else 0
        self.module._cache = self.caches[index]

    def prime(self, player: Player) -> None:
        """Give both caches the table (untimed: the first read rebuilds it from the log)."""
        from games.models import Table

        for cache in CACHES:
            self.module._cache = cache
            with self.module.locked(Table.objects.get(pk=player.table_id)):
                pass


def new_tables(count: int, users: list[Any], target: int) -> list[int]:
    from games import services

    out = []
    for _ in range(count):
        a, b, c = users
        table = services.table_create(
            user=a, players=3, move_seconds=600, options={"target": target}
        )
        services.table_join(table=table, user=b)
        services.table_join(table=table, user=c)
        services.table_start(table=table, user=a)
        out.append(table.pk)
    return out


def timed_submit(
    player: Player, caches: Caches, profile: cProfile.Profile | None
) -> tuple[float, int, float]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    seat, action = player.next_action()  # untimed: the simulated player's decision
    caches.use_for(player)
    with CaptureQueriesContext(connection) as queries:
        if profile is not None:
            profile.enable()
        c0 = time.process_time()
        t0 = time.perf_counter()
        player.submit(seat, action)
        elapsed = time.perf_counter() - t0
        cpu = time.process_time() - c0
        if profile is not None:
            profile.disable()
    return elapsed, len(queries), cpu


def stats(samples: list[tuple[float, int, float]]) -> dict[str, float]:
    times = sorted(t * 1000 for t, _, _ in samples)
    return {
        "n": len(times),
        "median": statistics.median(times),
        "mean": statistics.fmean(times),
        "p90": times[int(0.9 * (len(times) - 1))],
        "queries": statistics.fmean(q for _, q, _ in samples),
        "cpu": statistics.median(c * 1000 for _, _, c in samples),
    }


def run(args: argparse.Namespace) -> str:
    from django.contrib.auth import get_user_model

    rng = random.Random(args.seed)
    user_model = get_user_model()
    users = [user_model.objects.create(username=f"bench-actions-{i}") for i in range(3)]
    target = 100_000

    # Tables played to deal --late-deals (untimed), one cache.
    caches = Caches(behind=False)
    t0 = time.perf_counter()
    old = [Player(tid, rng, users) for tid in new_tables(args.tables, users, target)]
    for player in old:
        while player.dealing < args.late_deals:
            decision = player.next_action()
            caches.use_for(player)
            player.submit(*decision)
    build = time.perf_counter() - t0
    lines = [
        f"{args.tables} tables played to deal {args.late_deals} in {build:.1f} s "
        f"({sum(p.version for p in old)} actions; versions {', '.join(str(p.version) for p in old)})",
        "",
        "| cache | first deal: n | median ms | mean ms | p90 ms | CPU ms | SQL | late: n | median ms | mean ms | p90 ms | CPU ms | SQL | late/first median | mean | CPU |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    # Both kinds are profiled alike (or neither), so the profiler's overhead does not tilt the ratio.
    profile = cProfile.Profile() if args.cprofile else None
    profile_first = cProfile.Profile() if args.cprofile else None
    verdicts = []
    for behind in (False, True):
        caches = Caches(behind=behind)
        fresh = [Player(tid, rng, users) for tid in new_tables(args.tables, users, target)]
        for player in fresh + old:
            caches.prime(player)
        # Warm up both paths (imports, prepared statements, the pool) without timing them.
        for player in (fresh[0], old[0]):
            for _ in range(2):
                decision = player.next_action()
                caches.use_for(player)
                player.submit(*decision)
        first: list[tuple[float, int, float]] = []
        late: list[tuple[float, int, float]] = []
        for young, aged in zip(fresh, old, strict=True):
            start = aged.dealing
            while young.dealing == 0:
                first.append(timed_submit(young, caches, profile_first))
                late.append(timed_submit(aged, caches, profile))
            # Finish the old table's deal untimed so the next pair starts at a deal's start.
            while aged.dealing == start:
                decision = aged.next_action()
                caches.use_for(aged)
                aged.submit(*decision)
        a, b = stats(first), stats(late)
        ratio_median, ratio_mean = b["median"] / a["median"], b["mean"] / a["mean"]
        name = "behind by one" if behind else "warm"
        lines.append(
            f"| {name} | {a['n']} | {a['median']:.2f} | {a['mean']:.2f} | {a['p90']:.2f} | {a['cpu']:.2f} | "
            f"{a['queries']:.1f} | {b['n']} | {b['median']:.2f} | {b['mean']:.2f} | {b['p90']:.2f} | {b['cpu']:.2f} | "
            f"{b['queries']:.1f} | {ratio_median:.2f} | {ratio_mean:.2f} | {b['cpu'] / a['cpu']:.2f} |"
        )
        verdicts.append((name, ratio_median))
    lines.append("")
    for name, ratio in verdicts:
        lines.append(
            f"bar ({name}): a late action within 20% of a first-deal action (median ratio <= 1.20): "
            f"{'met' if ratio <= 1.20 else 'NOT met'} ({ratio:.2f})"
        )
    lines.append(f"late actions were in deals {args.late_deals} to {max(p.dealing for p in old)}")
    if profile is not None:
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats("tottime").print_stats(args.cprofile_top)
        lines.append("")
        lines.append(
            "cProfile of the late actions (both cache situations), by own time (wall clock):"
        )
        lines.append(out.getvalue().strip())
    return "\n".join(lines)


def header(load_before: tuple[float, float, float]) -> str:
    import django
    import psycopg
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        pg = cursor.fetchone()[0]
    load = os.getloadavg()
    return (
        f"machine: {os.cpu_count()} CPUs; load average (1, 5, 15 min) at the start "
        f"{load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}, at the end "
        f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}\n"
        f"Python {platform.python_version()}, Django {django.__version__}, psycopg {psycopg.__version__}, "
        f"PostgreSQL {pg}"
    )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=3, help="tables of each kind (first deal, late)")
    p.add_argument(
        "--late-deals", type=int, default=30, help="completed deals before the late actions"
    )
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--cprofile",
        action="store_true",
        help="profile both kinds; print the late actions' profile",
    )
    p.add_argument("--cprofile-top", type=int, default=25)
    p.add_argument(
        "--database-url",
        default=os.environ.get(
            "BENCH_ACTIONS_DATABASE_URL",
            "postgres://postgres@127.0.0.1:5432/thousand_bench_actions",
        ),
    )
    p.add_argument(
        "--redis-url", default=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/6")
    )
    args = p.parse_args()
    load_before = os.getloadavg()
    prepare(args)
    body = run(args)
    print(header(load_before))
    print(body)


if __name__ == "__main__":
    main()
