"""Checks the live-table benchmarks make before they drop a database or flush a Redis db,
so that two runs on one machine never spoil each other (a shared machine: another run
may use the same names).

- :func:`database_free`: nobody else is connected to the database about to be dropped
  (``DROP DATABASE … WITH (FORCE)`` would cut them off);
- :func:`redis_free`: nobody is subscribed to the channels of this Redis db's channel
  layer (the layer's prefix is ``thousand<db>``, config/settings.py): a server of another
  run would receive this run's updates, and this run's clients its updates.
"""

from __future__ import annotations

from urllib.parse import urlsplit


def database_free(admin: object, name: str) -> None:
    """``admin`` is an open psycopg connection to another database of the server."""
    rows = admin.execute(  # type: ignore[attr-defined]
        "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
        [name],
    ).fetchone()
    if rows and rows[0]:
        raise SystemExit(
            f"database {name!r} has {rows[0]} other connection(s): another run (or a server) "
            "uses it. Stop that first, or name another database (--database-url, starting "
            "with thousand_bench)."
        )


def redis_free(url: str) -> None:
    import redis

    prefix = "thousand" + urlsplit(url).path.strip("/")
    client = redis.Redis.from_url(url)
    try:
        channels = client.pubsub_channels(f"{prefix}*")
    finally:
        client.close()
    if channels:
        raise SystemExit(
            f"{len(channels)} channel(s) of this Redis db's channel layer ({prefix}*) have "
            f"subscribers: another server uses {url}. Stop it first, or use another db "
            "(--redis-url)."
        )
