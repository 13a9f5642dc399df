"""No API token in any log line: uvicorn's access log and its
websocket lines print whole URLs, and a client may send ``?token=<key>``. A real uvicorn
server (the embedded default, on a SQLite file of its own) is asked over HTTP and over a
websocket with a token in the URL; its log must show the requests and never the key,
also when the parameter's name is percent-encoded (``?%74oken=``),
which the server decodes, and so signs the socket in."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
import websockets

from core.logging import redact

ROOT = Path(__file__).resolve().parents[1]
VARIABLES = ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "CELERY_TASK_ALWAYS_EAGER")


def free_port() -> int:
    for port in range(8200, 8300):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port in 8200-8299")


def manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
        check=True,
    )  # fmt: skip
    return done.stdout


@pytest.mark.timeout(180)
def test_a_token_in_a_url_never_reaches_the_log(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in VARIABLES}
    env.update(
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        DJANGO_SECRET_KEY="log-test-" + uuid.uuid4().hex,
        DJANGO_DEBUG="false",
        LOG_LEVEL="INFO",
        LOG_FORMAT="json",
    )
    manage(env, "migrate", "--noinput", "-v0")
    key = manage(
        env, "shell", "-c",
        "from accounts.models import User; from rest_framework.authtoken.models import Token; "
        "print(Token.objects.create(user=User.objects.create_user('logged', password='x')).key)",
    ).strip().splitlines()[-1]  # fmt: skip
    port = free_port()
    log = tmp_path / "server.log"
    with log.open("wb") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "config.asgi:application", "--port", str(port)],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        try:
            sender = asyncio.run(_visit(port, key))
        finally:
            server.terminate()
            server.wait(timeout=20)
    text = log.read_text()

    assert "/api/v1/me/?token=[redacted]" in text  # the access log line is there ...
    assert "/ws/lobby/?token=[redacted]" in text  # ... and the websocket's
    assert "/ws/echo/?%74oken=[redacted]" in text
    assert sender == "logged"  # the encoded name signed the socket in
    assert key not in text


async def _visit(port: int, key: str) -> str | None:
    """Visits with the key in URLs; returns who the encoded-name socket was."""
    deadline = time.monotonic() + 60
    while True:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            break
        except OSError:
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.2)
    writer.write(
        f"GET /api/v1/me/?token={key} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode()
    )
    await writer.drain()
    await reader.read()
    writer.close()
    origin = {"Origin": f"http://127.0.0.1:{port}"}
    async with websockets.connect(
        f"ws://127.0.0.1:{port}/ws/lobby/?token={key}", additional_headers=origin
    ):
        pass
    async with websockets.connect(
        f"ws://127.0.0.1:{port}/ws/echo/?%74oken={key}", additional_headers=origin
    ) as ws:
        await ws.send(json.dumps({"type": "echo", "payload": 1}))
        sender = json.loads(await asyncio.wait_for(ws.recv(), 10))["from"]
    await asyncio.sleep(0.5)  # the access log line is written after the response
    return sender


def test_redact_takes_out_query_tokens_and_token_headers():
    key = "0123456789abcdef0123456789abcdef01234567"

    assert key not in redact(f'"GET /ws/tables/4/?invite=x&token={key} HTTP/1.1"')
    assert key not in redact(f"/tables/4/?invite=x%26token%3D{key}")
    assert key not in redact(f"Authorization: Token {key}")
    assert key not in redact(f'"WebSocket /ws/lobby/?%74oken={key}" [accepted]')
    assert key not in redact(f"/ws/lobby/?invite=x&T%6F%6BEN={key}")
    assert key not in redact(f"/ws/lobby/?%2574oken={key}")
    assert key not in redact(f"/tables/4/?invite=x%26%74oken%3D{key}")
    assert redact("/tables/?page=2&q=%41b") == "/tables/?page=2&q=%41b"
    assert redact("tokens=3, monkey=2") == "tokens=3, monkey=2"
