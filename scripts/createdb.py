"""Create the PostgreSQL database named by a URL if it does not exist yet.

Usage: python scripts/createdb.py postgres://user@host:5432/name
"""

import sys
from urllib.parse import urlsplit

import psycopg
from psycopg import sql


def main(url: str) -> None:
    parts = urlsplit(url)
    if not parts.scheme.startswith("postgres"):
        return
    name = parts.path.lstrip("/")
    admin_url = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin_url, autocommit=True, connect_timeout=5) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if not exists:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
            print(f"created database {name}")


if __name__ == "__main__":
    main(sys.argv[1])
