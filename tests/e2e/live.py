"""A live ASGI server for browser tests and screenshots: uvicorn in a subprocess with
real websockets against a real database of its own.

* PostgreSQL when ``DATABASE_URL`` names one: a fresh database ``<name>_e2e`` beside it
  (dropped and created again each run), else a SQLite file in a temporary directory.
* The Redis channel layer when ``REDIS_URL`` is set, else the in-memory one; Celery tasks
  run in the server process and bots play on the server's own loop, with a tiny pause.

Used by ``tests/e2e/conftest.py`` and ``scripts/screenshots.py``.
"""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[2]
BOT_DELAY = "0.02"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def fresh_postgres(url: str) -> str:
    """A new, empty database named after the one in ``url`` with ``_e2e`` appended."""
    import psycopg
    from psycopg import sql

    parts = urlsplit(url)
    name = (parts.path.lstrip("/") or "thousand") + "_e2e"
    admin = parts._replace(scheme="postgresql", path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True, connect_timeout=5) as conn:
        conn.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    return parts._replace(path=f"/{name}").geturl()


class LiveServer:
    """``with LiveServer() as server: server.url``"""

    def __init__(self, *, bot_delay: str = BOT_DELAY, log_path: Path | None = None) -> None:
        self.bot_delay = bot_delay
        self.tmp = tempfile.TemporaryDirectory(prefix="thousand-e2e-")
        # E2E_LOG_DIR: keep the server's log there (it is otherwise removed with the server).
        kept = os.environ.get("E2E_LOG_DIR")
        if log_path is None and kept:
            Path(kept).mkdir(parents=True, exist_ok=True)
            log_path = Path(kept) / f"server-{os.getpid()}.log"
        self.log_path = log_path or Path(self.tmp.name) / "server.log"
        # E2E_PORT: a fixed port (a shared machine may reserve a range for each person).
        self.port = int(os.environ.get("E2E_PORT") or 0) or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.env: dict[str, str] = {}

    def environment(self) -> dict[str, str]:
        env = dict(os.environ)
        database = env.get("DATABASE_URL", "")
        if database.startswith(("postgres://", "postgresql://", "pgsql://")):
            env["DATABASE_URL"] = fresh_postgres(database)
        else:
            env["DATABASE_URL"] = f"sqlite:///{Path(self.tmp.name) / 'e2e.sqlite3'}"
        # Run as in production (DEBUG off), which needs a secret key of its own.
        env.setdefault("DJANGO_SECRET_KEY", secrets.token_urlsafe(50))
        env.update(
            DJANGO_DEBUG="false",
            DJANGO_STATIC_MANIFEST="false",
            CELERY_TASK_ALWAYS_EAGER="true",
            GAMES_SCHEDULER="loop",
            GAMES_BOT_DELAY=self.bot_delay,
            # The analysis runs in the request (eager Celery): a small budget of worlds.
            ANALYSIS_SAMPLES="6",
            # Every browser of the session plays from 127.0.0.1, many tables of bots.
            GAMES_BOT_TABLES_PER_ADDRESS="1000",
            LOG_FORMAT="console",
            LOG_LEVEL=os.environ.get("E2E_LOG_LEVEL", "WARNING"),
            PYTHONUNBUFFERED="1",
        )
        return env

    def start(self) -> LiveServer:
        env = self.env = self.environment()
        python = sys.executable
        subprocess.run(
            [python, "manage.py", "migrate", "--noinput", "--verbosity", "0"],
            cwd=ROOT, env=env, check=True,
        )  # fmt: skip
        log = self.log_path.open("wb")
        self.process = subprocess.Popen(
            [python, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
             "--port", str(self.port), "--no-access-log", "--ws", "websockets"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited early:\n{self.log()}")
            try:
                urllib.request.urlopen(f"{self.url}/accounts/login/", timeout=2).read()
                return self
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"the server did not answer within 60 s:\n{self.log()}")

    def manage(self, *args: str, **env: str) -> None:
        """Run a management command against the server's database, e.g. to create the
        superuser an organiser would create with ``createsuperuser``."""
        subprocess.run(
            [sys.executable, "manage.py", *args], cwd=ROOT, env={**self.env, **env}, check=True,
            stdout=subprocess.DEVNULL,
        )  # fmt: skip

    def manage_output(self, *args: str, **env: str) -> str:
        """Run a management command against the server's database; returns what it
        printed (e.g. the id of what a ``shell -c`` made)."""
        done = subprocess.run(
            [sys.executable, "manage.py", *args], cwd=ROOT, env={**self.env, **env}, check=True,
            capture_output=True, text=True,
        )  # fmt: skip
        return done.stdout

    def stop_tables_left_playing(self) -> int:
        """Stop the tables a test left playing (its pages are closed): their seats would
        otherwise pass to bots after two missed clocks, and bots at this server's pace
        play them on to the end, dozens of tables by the end of a session, while later
        tests wait on the same server. A tournament's tables are left alone (a fixture
        may keep a tournament running over several tests). Marked abandoned in the
        database, as the admin's action leaves them; nobody is watching them."""
        url = self.env["DATABASE_URL"]
        statement = (
            "UPDATE games_table SET status = 'abandoned', deadline = NULL, finished_at = {now} "
            "WHERE status = 'playing' AND id NOT IN "
            "(SELECT table_id FROM tournaments_assignment WHERE table_id IS NOT NULL)"
        )
        if url.startswith("sqlite"):
            import sqlite3
            from contextlib import closing

            database = url.removeprefix("sqlite:///")
            with closing(sqlite3.connect(database, timeout=20)) as conn, conn:  # commits
                return conn.execute(statement.format(now="CURRENT_TIMESTAMP")).rowcount
        import psycopg

        target = urlsplit(url)._replace(scheme="postgresql").geturl()
        with psycopg.connect(target, autocommit=True, connect_timeout=5) as conn:
            return conn.execute(statement.format(now="now()")).rowcount

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-5000:]
        except OSError:
            return ""

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self.process = None
        self.tmp.cleanup()

    def __enter__(self) -> LiveServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
