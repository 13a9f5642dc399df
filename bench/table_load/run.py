"""The orchestrator: the database, the tables, the load generators and each configuration's
measurement."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import secrets
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from bench.guard import database_free, redis_free
from bench.stack import ROOT
from bench.table_load.client import READY_TIMEOUT, Spec
from bench.table_load.measure import (
    connections_per_process,
    cpu_seconds,
    db_backends,
    db_cpu,
    db_rows,
    descendants,
    is_worker,
    kernel_counts,
    machine_busy,
    p99_per_period,
    quantile,
    redis_pids,
    rss_mb,
    sys_seconds,
)
from bench.table_load.server import Children, Servers, Stack, read_json_line


class Bench(Servers):
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.children = Children()
        self.tmp = Path(tempfile.mkdtemp(prefix="table-load-"))
        db_url = args.database_url
        self.env = {
            **os.environ,
            "DATABASE_URL": db_url,
            "REDIS_URL": args.redis_url,
            "CELERY_BROKER_URL": args.redis_url,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DJANGO_DEBUG": "false",
            # A key of this run's own: the server refuses to start without one (DEBUG off).
            "DJANGO_SECRET_KEY": os.environ.get("DJANGO_SECRET_KEY") or secrets.token_urlsafe(50),
            "DJANGO_STATIC_MANIFEST": "false",
            "LOG_LEVEL": "WARNING",
            "GAMES_SCHEDULER": "celery",
            # Every client of the bench connects from 127.0.0.1 (one person each).
            "GAMES_WS_MAX_PER_ADDRESS": "0",
            "PYTHONUNBUFFERED": "1",
        }
        if args.retention is not None:
            self.env["GAMES_LOG_RETENTION_SECONDS"] = str(args.retention)
        if args.balancer == "haproxy":
            # As docker-compose.yml's web service behind the same configuration: HAProxy's
            # health check asks for Host "web", and its X-Forwarded-For hop is trusted.
            self.env["DJANGO_ALLOWED_HOSTS"] = "localhost,127.0.0.1,[::1],web"
            self.env["DJANGO_TRUSTED_PROXIES"] = "1"
        self.users: list[Any] = []
        self.tokens: list[str] = []

    # -- set-up -------------------------------------------------------------------------------

    def database(self) -> None:
        import psycopg
        from psycopg import sql

        parts = urlsplit(self.args.database_url)
        name = parts.path.lstrip("/")
        if not name.startswith("thousand_bench"):
            raise SystemExit(
                f"refusing to drop {name!r}: the bench database's name starts with thousand_bench"
            )
        admin = parts._replace(scheme="postgresql", path="/postgres").geturl()
        redis_free(self.args.redis_url)
        with psycopg.connect(admin, autocommit=True, connect_timeout=5) as conn:
            database_free(conn, name)
            conn.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
            cwd=ROOT,
            env=self.env,
            check=True,
        )
        import redis

        redis.Redis.from_url(self.args.redis_url).flushdb()

    def django(self) -> None:
        os.environ.update(self.env)
        import django

        django.setup()

    def accounts(self, count: int) -> None:
        """``count`` players with API tokens (one password hash for all: hashing is slow)."""
        from django.contrib.auth import get_user_model
        from django.contrib.auth.hashers import make_password
        from rest_framework.authtoken.models import Token

        user_model = get_user_model()
        password = make_password("bench-password")
        have = len(self.users)
        if count <= have:
            return
        fresh = user_model.objects.bulk_create(
            [user_model(username=f"bench{i}", password=password) for i in range(have, count)]
        )
        tokens = Token.objects.bulk_create([Token(user=u, key=Token.generate_key()) for u in fresh])
        self.users += fresh
        self.tokens += [t.key for t in tokens]

    def tables(self, n: int) -> list[dict[str, Any]]:
        """N started tables of three people: create, join, join, start (the services)."""
        from games import services

        self.accounts(3 * n)
        out = []
        for i in range(n):
            a, b, c = self.users[3 * i : 3 * i + 3]
            options = {"target": self.args.target, "barrel": False} if self.args.target else None
            table = services.table_create(user=a, players=3, move_seconds=600, options=options)
            services.table_join(table=table, user=b)
            services.table_join(table=table, user=c)
            services.table_start(table=table, user=a)
            out.append({"id": table.pk, "tokens": self.tokens[3 * i : 3 * i + 3]})
        return out

    def tidy(self) -> None:
        """End every table still playing, so that no clock of an old configuration runs
        out (and plays timeouts) during the next one."""
        from games import services
        from games.models import Table

        for table_id in Table.objects.filter(status=Table.Status.PLAYING).values_list(
            "pk", flat=True
        ):
            with contextlib.suppress(Exception):
                services.table_abandon(table=table_id)

    # -- one configuration ----------------------------------------------------------------------

    def measure(
        self, stack: Stack, n: int, think: float, workers: int, label: str
    ) -> dict[str, Any]:
        t_setup = time.monotonic()
        tables = self.tables(n)
        setup_seconds = time.monotonic() - t_setup
        gens = max(1, min(self.args.loadgens, n))
        procs = []
        for g in range(gens):
            spec = Spec(
                base_urls=stack.client_urls,
                tables=tables[g::gens],
                think=think,
                warmup=self.args.warmup,
                window=self.args.window,
                stall=self.args.stall,
                seed=self.args.seed * 1000 + g,
                deflate=self.args.deflate,
                spread=self.args.spread,
                target=self.args.target,
            )
            path = self.tmp / f"spec-{label}-{g}.json"
            path.write_text(json.dumps(spec.__dict__))
            procs.append(
                self.children.start(
                    "load generator",
                    [sys.executable, "-m", "bench.table_load", "--loadgen", str(path)],
                    cwd=ROOT,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=(self.tmp / f"loadgen-{label}-{g}.log").open("w"),
                    text=True,
                )
            )
        connect = []
        for proc in procs:
            line = read_json_line(proc, READY_TIMEOUT)
            connect.append(json.loads(line)["connect_seconds"])
        spread = connections_per_process(
            {int(b.rsplit(":", 1)[1]): self.server_pids(stack) for b in stack.base_urls}
        )
        for proc in procs:
            assert proc.stdin is not None
            proc.stdin.write("go\n")
            proc.stdin.flush()
        time.sleep(self.args.warmup)
        server = self.server_pids(stack)
        others = [p for proc in stack.others for p in descendants(proc.pid)]
        balancer = descendants(stack.balancer.pid) if stack.balancer is not None else []
        gen_pids = [p.pid for p in procs]
        db_name = urlsplit(self.args.database_url).path.lstrip("/")
        rows_before = db_rows(db_name)
        redis_procs = redis_pids()
        redis_before = cpu_seconds(redis_procs)
        before = (
            cpu_seconds(server),
            cpu_seconds(others),
            cpu_seconds(gen_pids),
            machine_busy(),
            sys_seconds(server),
            db_backends(db_name),
            kernel_counts(server),
            cpu_seconds(balancer),
        )
        if self.args.py_spy and label == self.args.profile:
            self.profile(server, label)
        samples: list[dict[str, Any]] = []
        if self.args.sample:
            self.soak(samples, stack, gen_pids, db_name)
        else:
            time.sleep(self.args.window)
        rows_after = db_rows(db_name)
        redis_after = cpu_seconds(redis_procs)
        after = (
            cpu_seconds(server),
            cpu_seconds(others),
            cpu_seconds(gen_pids),
            machine_busy(),
            sys_seconds(server),
            db_backends(db_name),
            kernel_counts(server),
            cpu_seconds(balancer),
        )
        results = []
        for proc in procs:
            line = read_json_line(proc, self.args.window + 60)
            results.append(json.loads(Path(json.loads(line)["result_file"]).read_text()))
            proc.wait(30)
            self.children.stop(proc)
        self.tidy()
        window = self.args.window
        busy = (
            (after[3][0] - before[3][0])
            / max(1, after[3][1] - before[3][1])
            * (os.cpu_count() or 1)
        )
        lat = sorted(x for r in results for x in r["latencies"])
        timed = sorted(
            (at, x) for r in results for at, x in zip(r["latency_at"], r["latencies"], strict=True)
        )
        errors: dict[str, int] = {}
        for r in results:
            for k, v in r["errors"].items():
                errors[k] = errors.get(k, 0) + v
        return {
            "label": label,
            "tables": n,
            "think": think,
            "workers": workers,
            "actions_per_s": sum(r["completed"] for r in results) / window,
            "p50_ms": 1000 * quantile(lat, 0.5),
            "p99_ms": 1000 * quantile(lat, 0.99),
            "max_ms": 1000 * lat[-1] if lat else float("nan"),
            "samples": len(lat),
            "stalled": sum(len(r["stalled"]) for r in results),
            "never_moved": sum(r["never_moved"] for r in results),
            "max_gap": max(r["max_gap"] for r in results),
            "finished": sum(r["finished"] for r in results),
            "replaced": sum(r["replaced"] for r in results),
            "replace_failures": [f for r in results for f in r["replace_failures"]],
            "errors": errors,
            "states_in_window": sum(r["states_in_window"] for r in results),
            "gaps": sum(r["gaps"] for r in results),
            "connect_retries": sum(r["connect_retries"] for r in results),
            "cpu_server": (after[0] - before[0]) / window,
            "sys_ms_per_action": 1000
            * (after[4] - before[4])
            / max(1, sum(r["completed"] for r in results)),
            "db_ms_per_action": 1000
            * db_cpu(before[5], after[5])
            / max(1, sum(r["completed"] for r in results)),
            "cpu_db": db_cpu(before[5], after[5]) / window,
            "cpu_ms_per_action": 1000
            * (after[0] - before[0])
            / max(1, sum(r["completed"] for r in results)),
            "cpu_celery": (after[1] - before[1]) / window,
            # HAProxy (--balancer haproxy; None without): all its threads, one process.
            "balancer_ms_per_action": 1000
            * (after[7] - before[7])
            / max(1, sum(r["completed"] for r in results))
            if stack.balancer is not None
            else None,
            "cpu_balancer": (after[7] - before[7]) / window if stack.balancer is not None else None,
            "cpu_loadgen": (after[2] - before[2]) / window,
            "cpu_machine": busy,
            "setup_s": setup_seconds,
            "connect_s": max(connect),
            "spread": sorted(spread.values(), reverse=True),
            "loadgens": gens,
            "samples_taken": samples,
            "redis_ms_per_action": 1000
            * (redis_after - redis_before)
            / max(1, sum(r["completed"] for r in results)),
            "update_bytes_per_action": sum(r["update_bytes"] for r in results)
            / max(1, sum(r["completed"] for r in results)),
            "db_rows_per_action": {
                k: (rows_after[k] - rows_before[k]) / max(1, sum(r["completed"] for r in results))
                for k in rows_after
            },
            "p99_per_period": p99_per_period(timed, self.args.period, window),
            "kernel_per_action": {
                k: (after[6][k] - before[6][k]) / max(1, sum(r["completed"] for r in results))
                for k in after[6]
            },
        }

    # -- the soak: resident memory and the log's size every --sample seconds -------------------

    def soak(
        self, samples: list[dict[str, Any]], stack: Stack, gen_pids: list[int], db_name: str
    ) -> None:
        start = time.monotonic()
        end = start + self.args.window
        due = start
        while True:
            now = time.monotonic()
            if now >= end:
                return
            if now >= due:
                sample = self.sample(stack, gen_pids, db_name, now - start)
                samples.append(sample)
                print(f"[soak] {json.dumps(sample)}", flush=True)
                due += self.args.sample
            time.sleep(max(0.0, min(1.0, end - time.monotonic(), due - time.monotonic())))

    def sample(self, stack: Stack, gen_pids: list[int], db_name: str, at: float) -> dict[str, Any]:
        from django.db import connection

        rss: dict[str, float] = {}
        for i, proc in enumerate(stack.server):
            for pid in descendants(proc.pid):
                rss[f"web{i}:{pid}"] = rss_mb(pid)
        if stack.balancer is not None:
            for pid in descendants(stack.balancer.pid):
                rss[f"haproxy:{pid}"] = rss_mb(pid)
        for proc in stack.others:
            kind = "worker" if "worker" in " ".join(proc.args) else "beat"
            for pid in descendants(proc.pid):
                rss[f"{kind}:{pid}"] = rss_mb(pid)
        for pid in gen_pids:
            rss[f"loadgen:{pid}"] = rss_mb(pid)
        backends = db_backends(db_name)
        # A backend's VmRSS counts the shared buffers it has touched (shared by all of
        # them): its own memory is RssAnon.
        rss["postgres backends, private (sum)"] = round(
            sum(rss_mb(pid, "RssAnon:") for pid in backends), 1
        )
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT (SELECT count(*) FROM games_tableaction), pg_total_relation_size('games_tableaction'),"
                " (SELECT count(*) FROM games_dealing), (SELECT count(*) FROM games_matchresult),"
                " (SELECT count(*) FROM games_table WHERE log_archived_at IS NOT NULL)"
            )
            log_rows, log_bytes, dealings, results, archived = cursor.fetchone()
            cursor.execute("SHOW autovacuum")
            autovacuum = cursor.fetchone()[0] == "on"
            if not autovacuum:
                # A server with autovacuum off (a development set-up) would let the
                # deleted rows' space pile up: stand in for it, once a sample.
                for name in ("games_tableaction", "games_dealing", "games_table"):
                    cursor.execute(f"VACUUM (ANALYZE) {name}")
        import redis

        info = redis.Redis.from_url(self.args.redis_url).info("memory")
        return {
            "minute": round(at / 60, 1),
            "rss_mb": rss,
            "log_rows": log_rows,
            "log_mb": round(log_bytes / 1e6, 2),
            "dealings": dealings,
            "backends": len(backends),
            "vacuumed": not autovacuum,
            "results": results,
            "archived": archived,
            "redis_used_mb": round(info["used_memory"] / 1e6, 2),
            "load": os.getloadavg()[0],
        }

    def profile(self, pids: list[int], label: str) -> None:
        """py-spy on each server worker for the window (not a project dependency: pass its
        path with --py-spy). ``--gil``: only the thread holding the GIL is sampled, so the
        samples show where the process spends CPU in Python (waits on PostgreSQL, Redis or
        the sockets are not counted). Raw collapsed stacks land in the temp folder;
        ``bench/pyspy_summary.py`` sums them up."""
        for pid in pids:
            if not Path(f"/proc/{pid}/cmdline").read_bytes().count(b"uvicorn") and not is_worker(
                pid
            ):
                continue
            out = self.tmp / f"py-spy-{label}-{pid}.txt"
            self.children.start(
                "py-spy",
                [
                    self.args.py_spy,
                    "record",
                    "--pid",
                    str(pid),
                    "--duration",
                    str(int(self.args.window)),
                    "--rate",
                    "200",
                    "--gil",
                    "--format",
                    "raw",
                    "--output",
                    str(out),
                    "--nonblocking",
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            print(f"  py-spy on {pid} -> {out}", flush=True)

    # -- everything -------------------------------------------------------------------------------

    def run(self) -> list[dict[str, Any]]:
        args = self.args
        print(
            f"[bench] database {args.database_url}, redis {args.redis_url}; logs in {self.tmp}",
            flush=True,
        )
        self.database()
        self.django()
        plans: list[tuple[int, int, float]] = []  # (workers, tables, think)
        for think in args.think:
            for n in args.tables:
                plans.append((args.workers, n, think))
        for n in args.one_worker:
            plans.append((1, n, 0.0))
        rows = []
        current: tuple[int, Stack] | None = None
        for workers, n, think in plans:
            if current is None or current[0] != workers:
                if current is not None:
                    self.stop_stack(current[1])
                current = (workers, self.stack(workers))
            label = f"{n}t-{'closed' if think == 0 else f'think{think:g}'}-{workers}w"
            print(f"[bench] {label}: setting up {n} tables ...", flush=True)
            row = self.measure(current[1], n, think, workers, label)
            balancer = (
                f"HAProxy {row['balancer_ms_per_action']:.2f} ms CPU per action, "
                if row["balancer_ms_per_action"] is not None
                else ""
            )
            print(
                f"[bench] {label}: {row['actions_per_s']:.0f} actions/s, p50 {row['p50_ms']:.1f} ms, "
                f"p99 {row['p99_ms']:.1f} ms, stalled {row['stalled']}, errors {row['errors']}, "
                f"{balancer}connections per server process {row['spread']}",
                flush=True,
            )
            rows.append(row)
        if current is not None:
            self.stop_stack(current[1])
        return rows
