"""Part 2 of bench/ratings.py: the speed of the ratings on PostgreSQL.

- Results processed per second through the real task path: ``ratings.apply_result``
  applied in-process (``task.apply``, the code a worker runs) and, with ``--worker``,
  through Redis and a real Celery worker process (2 processes).
- The leaderboard page, its size, and "my rank" with ``--players`` players (100,000) and
  ``--changes`` rating changes (1,000,000), bulk-loaded with ``generate_series``; each
  query's median time over repeated runs and its ``EXPLAIN (ANALYZE, BUFFERS)`` plan.

It uses its own database (``--db``, default ``thousand_ratings_bench``), created and
migrated if needed; the bulk load is kept between runs (``--reload`` redoes it).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/thousand_ratings_bench"


def setup_django(db_url: str) -> None:
    import psycopg
    from psycopg import sql

    parts = urlsplit(db_url)
    name = parts.path.lstrip("/")
    server = parts._replace(scheme="postgresql", path="/postgres").geturl()
    with psycopg.connect(server, autocommit=True) as conn:
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone() is None:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    os.environ["DATABASE_URL"] = db_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def timed(fn: Callable[[], Any], runs: int) -> tuple[float, float]:
    """Median and max in ms over ``runs`` calls (after one warm-up call)."""
    fn()
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times), max(times)


# ---------------------------------------------------------------- processing rate


def make_results(count: int, users: int, seeds: int) -> list[int]:
    """``count`` finished rated three-player results among ``users`` bench users; the
    records are ``seeds`` distinct bot matches, reused."""
    from datetime import timedelta

    from django.utils import timezone

    from accounts.models import User
    from tests.ratings.helpers import finished_match

    people = [User.objects.get_or_create(username=f"speed{i}")[0] for i in range(users)]
    start = timezone.now() - timedelta(days=1)
    ids = []
    for i in range(count):
        three = [people[(i * 7 + k * 3) % users] for k in range(3)]
        if len({u.pk for u in three}) < 3:
            three = [people[(i + k) % users] for k in range(3)]
        ids.append(finished_match(three, at=start + timedelta(seconds=i), seed=1 + i % seeds).pk)
    return ids


def wipe_results() -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        # The bench database is the bench's alone: every table and result goes.
        cursor.execute("TRUNCATE games_table CASCADE")


def processing(args: argparse.Namespace) -> None:
    from ratings.lines import seat_lines
    from ratings.models import RatingChange
    from ratings.tasks import apply_result

    wipe_results()
    ids = make_results(args.results, 30, 12)
    from games.models import MatchResult

    records = [r.record for r in MatchResult.objects.filter(pk__in=ids[:12])]
    t0 = time.perf_counter()
    for rec in records:
        seat_lines(rec)
    replay_ms = (time.perf_counter() - t0) * 1000 / len(records)

    t0 = time.perf_counter()
    for pk in ids:
        apply_result.apply(args=[pk]).get()
    dt = time.perf_counter() - t0
    assert RatingChange.objects.count() == 3 * len(ids)
    print(f"  in-process task (apply_result.apply), {len(ids)} results in time order: "
          f"{len(ids) / dt:.0f} results/s ({dt * 1000 / len(ids):.1f} ms each, of which replaying the record "
          f"for the profile line {replay_ms:.1f} ms)")  # fmt: skip
    t0 = time.perf_counter()
    for pk in ids:
        apply_result.apply(args=[pk]).get()
    dt = time.perf_counter() - t0
    print(
        f"  the same results again (already processed; nothing changes): {len(ids) / dt:.0f} results/s"
    )

    if args.worker:
        through_worker(ids, args)


def through_worker(ids: Sequence[int], args: argparse.Namespace) -> None:
    import redis
    from django.db import connection

    from config.celery import app
    from ratings.models import RatingChange
    from ratings.services import ratings_recompute  # noqa: F401  (worker imports the same)
    from ratings.tasks import apply_result

    redis_url = args.redis
    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE ratings_ratingchange, ratings_rating")
    redis.Redis.from_url(redis_url).delete("celery")
    env = {
        **os.environ,
        "REDIS_URL": redis_url,
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "LOG_FORMAT": "console",
        "LOG_LEVEL": "WARNING",
    }
    env.pop("CELERY_BROKER_URL", None)
    app.conf.task_always_eager = False
    app.conf.broker_url = redis_url
    for pk in ids:
        apply_result.delay(pk)
    command = [sys.executable, "-m", "celery", "-A", "config", "worker", "--concurrency=2",
               "--without-gossip", "--without-mingle", "--without-heartbeat", "--loglevel=WARNING"]  # fmt: skip
    process = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        t0 = time.perf_counter()
        first = None
        deadline = t0 + 300
        while True:
            done = RatingChange.objects.values("result_id").distinct().count()
            if done and first is None:
                first = time.perf_counter()
            if done >= len(ids) or time.perf_counter() > deadline:
                break
            time.sleep(0.05)
        end = time.perf_counter()
    finally:
        process.terminate()
        process.wait(30)
    assert first is not None
    print(f"  through Redis and a Celery worker (2 processes, queued in advance): {done} results, "
          f"{done / (end - first):.0f} results/s from the first to the last (start-up {first - t0:.1f} s excluded)")  # fmt: skip


# ---------------------------------------------------------------- leaderboard at scale

LOAD_SQL = """
INSERT INTO accounts_user (password, is_superuser, username, first_name, last_name, email,
                           is_staff, is_active, date_joined, display_name, country, preferred_language)
SELECT '!', false, 'bench' || g, '', '', '', false, true, now(), 'Bench player ' || g, '', ''
FROM generate_series(1, %(players)s) g;

INSERT INTO ratings_competitor (user_id, bot_level)
SELECT id, '' FROM accounts_user WHERE username LIKE 'bench%%';

-- Ratings of the three-player pool: a spread like a real one, games from 1 to 40, last
-- played some time in the last 90 days.
INSERT INTO ratings_rating (competitor_id, players, rating, games, wins, provisional, is_bot, last_played)
SELECT c.id, 3,
       1500 + 150 * sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random()),
       g, g / 3, g < %(provisional)s, false, now() - random() * interval '90 days'
FROM ratings_competitor c
CROSS JOIN LATERAL (SELECT 1 + floor(random() * 40)::int + (c.id * 0) AS g) games
WHERE c.user_id IS NOT NULL;

-- The changes: %(per)s a player, against the bench results (the leaderboard and the rank
-- never read them; the history does, by competitor).
INSERT INTO ratings_ratingchange (competitor_id, result_id, players, played_at, seat, place, before,
                                  after, delta, created_at, deals, points, contracts_made,
                                  contracts_failed, bolts, barrels, barrel_won)
SELECT c.id, r.id, 3, now() - (k || ' hours')::interval, 0, 1 + (k %% 3), 1500, 1510, 10, now(),
       30, 600, 5, 3, 2, 1, k %% 3 = 0
FROM ratings_competitor c
CROSS JOIN LATERAL (SELECT id, row_number() OVER (ORDER BY id) AS k FROM games_matchresult
                    ORDER BY id LIMIT %(per)s) r
WHERE c.user_id IS NOT NULL;
"""


def load(args: argparse.Namespace) -> None:
    from django.db import connection

    from ratings.models import Rating

    have = Rating.objects.filter(players=3, competitor__user__username__startswith="bench").count()
    if have >= args.players and not args.reload:
        print(f"  (bulk load kept from an earlier run: {have} players)")
        return
    per = max(1, args.changes // args.players)
    wipe_results()
    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE ratings_ratingchange, ratings_rating, ratings_competitor CASCADE")
        cursor.execute("DELETE FROM accounts_user WHERE username LIKE 'bench%%'")
    make_results(per, 30, 12)
    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE ratings_ratingchange, ratings_rating")
    t0 = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute(LOAD_SQL, {"players": args.players, "per": per, "provisional": 10})
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE ratings_rating")
        cursor.execute("VACUUM ANALYZE ratings_ratingchange")
        cursor.execute("VACUUM ANALYZE accounts_user")
    print(f"  bulk load: {time.perf_counter() - t0:.0f} s")


def board_queries(args: argparse.Namespace) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from accounts.models import User
    from ratings import selectors
    from ratings.models import Rating, RatingChange

    print(f"  {Rating.objects.filter(players=3).count():,} players in the three-player pool, "
          f"{RatingChange.objects.count():,} rating changes")  # fmt: skip
    ranked = list(
        Rating.objects.filter(players=3, provisional=False)
        .order_by("-rating")
        .values_list("competitor__user_id", flat=True)
    )
    top, middle, bottom = (
        User.objects.get(pk=ranked[i]) for i in (0, len(ranked) // 2, len(ranked) - 1)
    )
    board = selectors.Board(players=3)
    active = selectors.Board(players=3, period="active", bots=False)
    deep = (len(ranked) // 2 // 50) * 50
    cases: list[tuple[str, Callable[[], Any]]] = [
        (
            "leaderboard page 1 (all time, settled players)",
            lambda: selectors.leaderboard(board=board),
        ),
        (
            f"leaderboard page at offset {deep:,}",
            lambda: selectors.leaderboard(board=board, offset=deep),
        ),
        ("leaderboard size (for the pager)", lambda: selectors.leaderboard_size(board=board)),
        ("active-30-days page 1, no bots", lambda: selectors.leaderboard(board=active)),
        ("active-30-days size", lambda: selectors.leaderboard_size(board=active)),
        ("my rank: the top player", lambda: selectors.player_rank(user=top, board=board)),
        ("my rank: the median player", lambda: selectors.player_rank(user=middle, board=board)),
        ("my rank: the last player", lambda: selectors.player_rank(user=bottom, board=board)),
        (
            "my rank: the last player, active board",
            lambda: selectors.player_rank(user=bottom, board=active),
        ),
        (
            "name search 'player 4242'",
            lambda: selectors.leaderboard(board=selectors.Board(players=3, search="player 4242")),
        ),
        ("a player's rating history", lambda: selectors.player_rating_history(user=middle)),
    ]
    print(f"  {'query':<48} {'median ms':>10} {'max ms':>8}")
    plans: list[tuple[str, list[str]]] = []
    for name, fn in cases:
        median, worst = timed(fn, args.runs)
        print(f"  {name:<48} {median:>10.2f} {worst:>8.2f}")
        if args.plans:
            with CaptureQueriesContext(connection) as captured:
                fn()
            plans.append((name, [q["sql"] for q in captured.captured_queries]))
    if args.plans:
        print("\n  EXPLAIN (ANALYZE, BUFFERS) of each query above:")
        for name, queries in plans:
            for sql in queries:
                with connection.cursor() as cursor:
                    cursor.execute("EXPLAIN (ANALYZE, BUFFERS) " + sql)
                    lines = [row[0] for row in cursor.fetchall()]
                print(f"\n  -- {name}\n  {sql[:300]}{'…' if len(sql) > 300 else ''}")
                for line in lines:
                    print(f"    {line}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--db", default=DEFAULT_DB)
    parser.add_argument("--redis", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/3"))
    parser.add_argument("--results", type=int, default=300, help="results for the processing rate")
    parser.add_argument(
        "--worker", action="store_true", help="also through Redis and a real Celery worker"
    )
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--changes", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--reload", action="store_true", help="redo the bulk load")
    parser.add_argument("--no-plans", dest="plans", action="store_false")
    parser.add_argument("--skip-processing", action="store_true")
    args = parser.parse_args(argv)
    setup_django(args.db)
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT version()")
        version = cursor.fetchone()[0].split(",")[0]
    print(f"Part 2: speed on {version} (database {urlsplit(args.db).path.lstrip('/')})")
    if not args.skip_processing:
        print("processing results:")
        processing(args)
    print(f"leaderboard with {args.players:,} players and {args.changes:,} changes:")
    load(args)
    board_queries(args)


if __name__ == "__main__":
    main()
