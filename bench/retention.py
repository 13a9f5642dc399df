"""Data that stays small: row counts and sizes of the live tables' tables
before and after N finished matches and the archive task (games/retention.py).

On a database of its own (``thousand_bench_retention`` by default: dropped, created and
migrated at the start; only names beginning with ``thousand_bench`` are accepted), it

1. plays ``--distinct`` whole matches with the engine (``basic`` bots, the classic
   preset, three players, every deal dealt from a fresh server seed as the services
   deal it: docs/fair-dealing.md), each with its ``thousand/1`` record;
2. writes ``--matches`` finished tables from them, row for row as the services leave a
   finished match: the table, three seats, one log row per action (with a client message
   id, as a person's action has), one dealing per deal (revealed) and the one prepared
   for the next deal, and the result with its record (the distinct matches are used in
   turn; the services themselves would take an hour here: their cost per action is what
   ``bench/table_actions.py`` measures);
3. runs the archive task (``games.retention.logs_archive``, as the beat runs it) until
   no table is due, timed (wall and CPU of this process and of its PostgreSQL backend);
4. lets VACUUM run as autovacuum would; and all that ``--rounds`` times: the log's size
   levels off, the freed space is used again.

Printed after each step: rows, table size, index size and TOAST of each table, and the
WAL written, with the engine's speed (``bench/engine.py``) as the machine's yardstick.

Run: ``python -m bench.retention`` (a few minutes), ``python -m bench.retention --matches 100``
"""

from __future__ import annotations

import argparse
import os
import platform
import secrets
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent

from bench.guard import database_free  # noqa: E402

KEPT = ("games_matchresult", "games_table", "games_seat")
TABLES = ("games_tableaction", "games_dealing", "games_matchresult", "games_table", "games_seat")


def prepare(database_url: str) -> None:
    import psycopg
    from psycopg import sql

    parts = urlsplit(database_url)
    name = parts.path.lstrip("/")
    if not name.startswith("thousand_bench"):
        raise SystemExit(
            f"refusing to drop {name!r}: the bench database's name starts with thousand_bench"
        )
    os.environ.pop("REDIS_URL", None)  # no broadcasts here: only rows
    os.environ.update(
        {
            "DATABASE_URL": database_url,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DJANGO_DEBUG": "false",
            "DJANGO_SECRET_KEY": os.environ.get("DJANGO_SECRET_KEY") or secrets.token_urlsafe(50),
            "LOG_LEVEL": "WARNING",
            "GAMES_SCHEDULER": "manual",
        }
    )
    admin = parts._replace(scheme="postgresql", path="/postgres").geturl()
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


# -- matches ------------------------------------------------------------------------------


def play_match(seed: int) -> dict[str, Any]:
    """A whole match of basic bots, dealt from server seeds as the services deal:
    its record (with each deal's dealing) and its final state."""
    import random

    from games.bots import make_bot
    from games.engine import Match, Options
    from games.engine.fair import commitment, deal_from_seeds, new_server_seed

    rng = random.Random(seed)
    options = Options.preset("classic")
    match = Match.empty(options, first_dealer=rng.randrange(options.players))
    bots = [make_bot("basic", seed=seed * 10 + s) for s in range(options.players)]
    dealings = []
    while not match.over:
        if match.deal is None or match.awaiting_deal:
            server = new_server_seed()
            dealings.append(
                {"commitment": commitment(server), "server_seed": server.hex(), "client_seeds": {}}
            )
            hands, talons = deal_from_seeds(server, {}, match.players, match.dealer)
            match.start_deal(hands, talons)
            continue
        seat = match.to_act
        assert seat is not None
        match.apply(bots[seat].decide(match.view(seat)), seat=seat)
    record = match.to_record()
    for deal, dealing in zip(record["deals"], dealings, strict=True):
        deal["dealing"] = dealing
    return {
        "record": record,
        "scores": list(match.scores),
        "winner": match.winner,
        "deals": len(match.results),
        "dealers": [r.dealer for r in match.results],
    }


def write_matches(matches: list[dict[str, Any]], count: int, users: list[Any], offset: int) -> int:
    """``count`` finished tables from ``matches`` in turn; returns the actions written."""
    from datetime import timedelta

    from django.db import transaction
    from django.utils import timezone

    from games.engine.fair import commitment, new_server_seed
    from games.models import Dealing, MatchResult, Seat, Table, TableAction
    from games.services import placements

    finished = timezone.now() - timedelta(days=1)
    actions = 0
    for i in range(count):
        m = matches[(offset + i) % len(matches)]
        record = m["record"]
        version = sum(len(d["actions"]) for d in record["deals"])
        seated = [users[(3 * (offset + i) + s) % len(users)] for s in range(3)]
        with transaction.atomic():
            table = Table.objects.create(
                created_by=seated[0],
                players=3,
                preset="classic",
                options=record["options"],
                rated=True,
                status=Table.Status.FINISHED,
                version=version,
                first_dealer=record["first_dealer"],
                started_at=finished - timedelta(minutes=40),
                finished_at=finished,
            )
            Seat.objects.bulk_create(
                Seat(table=table, number=s, user=u) for s, u in enumerate(seated)
            )
            rows = []
            v = 0
            for number, deal in enumerate(record["deals"]):
                for item in deal["actions"]:
                    v += 1
                    action = {k: val for k, val in item.items() if k != "seat"}
                    rows.append(
                        TableAction(
                            table=table,
                            version=v,
                            dealing=number,
                            seat=item["seat"],
                            action=action,
                            source=TableAction.Source.HUMAN,
                            client_id=secrets.token_urlsafe(12),
                        )
                    )
            TableAction.objects.bulk_create(rows, batch_size=1000)
            dealings = [
                Dealing(
                    table=table,
                    number=number,
                    dealer=m["dealers"][number],
                    commitment=deal["dealing"]["commitment"],
                    server_seed=deal["dealing"]["server_seed"],
                    client_seeds={},
                    dealt_at=finished,
                    revealed=True,
                )
                for number, deal in enumerate(record["deals"])
            ]
            seed = new_server_seed()
            dealings.append(
                Dealing(
                    table=table,
                    number=len(dealings),
                    server_seed=seed.hex(),
                    commitment=commitment(seed),
                )
            )
            Dealing.objects.bulk_create(dealings)
            full = dict(record)
            full["meta"] = {"table": table.pk, "preset": "classic", "rated": True, "seats": [
                {"number": s, "name": u.get_display_name(), "user_id": u.pk, "bot": None, "away": False,
                 "resigned": False} for s, u in enumerate(seated)
            ]}  # fmt: skip
            MatchResult.objects.create(
                table=table,
                finished_at=finished,
                final_scores=m["scores"],
                placements=placements(m["scores"], m["winner"], [False] * 3),
                winner_seat=m["winner"],
                deals=m["deals"],
                record=full,
            )
        actions += version
    return actions


# -- measuring ----------------------------------------------------------------------------


def sizes() -> dict[str, dict[str, int]]:
    from django.db import connection

    out = {}
    with connection.cursor() as cursor:
        for name in TABLES:
            cursor.execute(
                "SELECT (SELECT count(*) FROM "
                + name
                + "), pg_relation_size(%s), pg_indexes_size(%s),"
                " pg_total_relation_size(%s) - pg_relation_size(%s) - pg_indexes_size(%s),"
                " coalesce((SELECT n_dead_tup FROM pg_stat_user_tables WHERE relname = %s), 0)",
                [name] * 6,
            )
            rows, heap, index, toast, dead = cursor.fetchone()
            out[name] = {"rows": rows, "heap": heap, "index": index, "toast": toast, "dead": dead}
    return out


def wal_lsn() -> int:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_current_wal_lsn() - '0/0'::pg_lsn")
        return int(cursor.fetchone()[0])


def backend_cpu() -> float:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def mb(n: int) -> str:
    return f"{n / 1e6:.2f}"


def table_of(label: str, s: dict[str, dict[str, int]]) -> list[str]:
    lines = [f"### {label}", "", "| table | rows | dead rows | heap MB | indexes MB | TOAST MB | total MB |",
             "|---|---:|---:|---:|---:|---:|---:|"]  # fmt: skip
    for name, v in s.items():
        lines.append(
            f"| {name} | {v['rows']:,} | {v['dead']:,} | {mb(v['heap'])} | {mb(v['index'])} | {mb(v['toast'])} "
            f"| {mb(v['heap'] + v['index'] + v['toast'])} |"
        )
    total = sum(v["heap"] + v["index"] + v["toast"] for v in s.values())
    lines += [f"| all five | | | | | | {mb(total)} |", ""]
    return lines


def archive_all() -> tuple[int, float, float, float, int]:
    """Run the archive task until nothing is due: (tables, wall s, CPU s of this
    process, CPU s of its PostgreSQL backend, runs)."""
    from datetime import timedelta

    from django.utils import timezone

    from games import retention

    now = timezone.now() + timedelta(days=2)
    tables, runs = 0, 0
    wall, cpu, db = time.perf_counter(), time.process_time(), backend_cpu()
    while True:
        done = retention.logs_archive(now=now)
        runs += 1
        tables += done.tables
        if not done.tables:
            break
    return tables, time.perf_counter() - wall, time.process_time() - cpu, backend_cpu() - db, runs


def vacuum() -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        for name in TABLES:
            cursor.execute(f"VACUUM (ANALYZE) {name}")


def analyze() -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        for name in TABLES:
            cursor.execute(f"ANALYZE {name}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--matches", type=int, default=1000)
    p.add_argument("--rounds", type=int, default=3, help="write, archive, vacuum: this many times")
    p.add_argument(
        "--distinct", type=int, default=40, help="matches played by the engine, used in turn"
    )
    p.add_argument(
        "--database-url",
        default=os.environ.get(
            "BENCH_RETENTION_DATABASE_URL",
            "postgres://postgres@127.0.0.1:5432/thousand_bench_retention",
        ),
    )
    args = p.parse_args()
    load_before = os.getloadavg()
    from bench.engine import deals_per_second

    yard_before = deals_per_second()
    prepare(args.database_url)
    import django
    from django.db import connection

    from accounts.models import User

    t0 = time.perf_counter()
    matches = [play_match(seed) for seed in range(1, args.distinct + 1)]
    played = time.perf_counter() - t0
    per_match = [sum(len(d["actions"]) for d in m["record"]["deals"]) for m in matches]
    users = User.objects.bulk_create(
        User(username=f"bench{i}", email=f"bench{i}@example.com") for i in range(300)
    )

    out: list[str] = []
    empty = sizes()
    detail: list[str] = [*table_of("empty (migrated)", empty)]
    rounds: list[dict[str, Any]] = []
    for r in range(args.rounds):
        wal0 = wal_lsn()
        t0 = time.perf_counter()
        actions = write_matches(matches, args.matches, users, r * args.matches)
        wrote = time.perf_counter() - t0
        wal1 = wal_lsn()
        analyze()
        loaded = sizes()
        archived, a_wall, a_cpu, a_db, runs = archive_all()
        wal2 = wal_lsn()
        analyze()
        after_archive = sizes()
        vacuum()
        after_vacuum = sizes()
        rounds.append(
            {
                "actions": actions,
                "wrote": wrote,
                "loaded": loaded,
                "vacuumed": after_vacuum,
                "archived": archived,
                "archive": (a_wall, a_cpu, a_db),
                "wal_write": wal1 - wal0,
                "wal_archive": wal2 - wal1,
            }
        )
        if r == 0:
            detail += [
                *table_of(
                    f"after {args.matches} finished matches ({actions:,} actions, written in {wrote:.1f} s)",
                    loaded,
                ),
                *table_of(
                    f"after the archive task ({archived} tables in {runs} runs)", after_archive
                ),
                *table_of("after VACUUM (what autovacuum does on its own)", after_vacuum),
            ]
        print(f"[retention] round {r + 1} of {args.rounds} done", flush=True)
    yard_after = deals_per_second()

    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        pg = cursor.fetchone()[0]
        cursor.execute(
            "SELECT avg(pg_column_size(record)), avg(length(record::text)) FROM games_matchresult"
        )
        rec_stored, rec_text = (float(x) for x in cursor.fetchone())
    load = os.getloadavg()

    def total(s: dict[str, dict[str, int]], only: str | None = None) -> int:
        return sum(
            v[k]
            for name, v in s.items()
            if only in (None, name)
            for k in ("heap", "index", "toast")
        )

    first = rounds[0]
    actions = first["actions"]
    log_bytes = total(first["loaded"], "games_tableaction") - total(empty, "games_tableaction")
    out += [
        f"machine: {os.cpu_count()} CPUs; load average (1, 5, 15 min) at the start {load_before[0]:.2f} "
        f"{load_before[1]:.2f} {load_before[2]:.2f}, at the end {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}",
        f"engine yardstick (bench/engine.py, complete 3-player deals/s): {yard_before:,.0f} at the start, "
        f"{yard_after:,.0f} at the end",
        f"Python {platform.python_version()}, Django {django.__version__}, PostgreSQL {pg}",
        f"{args.distinct} distinct matches (classic, 3 basic bots) played by the engine in {played:.1f} s: "
        f"{min(per_match)}-{max(per_match)} actions, mean {sum(per_match) / len(per_match):.0f}; "
        f"{sum(m['deals'] for m in matches) / len(matches):.1f} deals a match",
        "",
        *detail,
        f"each round: {args.matches} finished matches written, the archive task, VACUUM (MB):",
        "",
        "| round | log MB written | log MB after archive + VACUUM (heap / indexes) | all five tables MB "
        "| archive ms/table: wall / Python CPU / PostgreSQL CPU | WAL kB/table: write / archive |",
        "|---:|---:|---|---:|---|---|",
    ]
    for number, rnd in enumerate(rounds, 1):
        n = max(rnd["archived"], 1)
        a_wall, a_cpu, a_db = rnd["archive"]
        log = rnd["vacuumed"]["games_tableaction"]
        out.append(
            f"| {number} | {mb(total(rnd['loaded'], 'games_tableaction'))} | "
            f"{mb(total(rnd['vacuumed'], 'games_tableaction'))} ({mb(log['heap'])} / {mb(log['index'])}) | "
            f"{mb(total(rnd['vacuumed']))} | {a_wall * 1e3 / n:.1f} / {a_cpu * 1e3 / n:.2f} / {a_db * 1e3 / n:.2f} | "
            f"{rnd['wal_write'] / args.matches / 1e3:.0f} / {rnd['wal_archive'] / n / 1e3:.0f} |"
        )
    out += [
        "",
        "per finished match:",
        f"- log rows: {actions / args.matches:.0f}; the log's bytes per action (heap + indexes): "
        f"{log_bytes / actions:.0f}; all five tables: {(total(first['loaded']) - total(empty)) / args.matches / 1e3:.0f} kB "
        "before the archive; what stays for good (the result with its record, the table and its seats): "
        f"{sum(total(rounds[-1]['vacuumed'], t) - total(empty, t) for t in KEPT) / (args.matches * args.rounds) / 1e3:.1f} kB",
        f"- WAL written while writing the matches: {first['wal_write'] / actions:.0f} bytes per action "
        "(bulk inserts: the live path writes one row per statement, and the table row each time)",
        f"- the record: {rec_stored / 1e3:.1f} kB stored (TOAST-compressed) of {rec_text / 1e3:.1f} kB of JSON",
    ]
    print("\n".join(out))


if __name__ == "__main__":
    main()
