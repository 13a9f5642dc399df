"""Every kind of websocket under core.ws_guard, through real servers (uvicorn,
PostgreSQL, Redis):

* caps per person and per address hold across two server processes, for every kind of
  socket, are given back however a socket ends, and survive a server
  that dies (its leases run out);
* a player's sockets close when his credentials are revoked, and a socket that the
  closing message missed is refused when it acts.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis.asyncio as aredis
import websockets
from channels.db import database_sync_to_async
from django.conf import settings as django_settings
from django.test import Client

from accounts.services import token_rotate, user_password_change
from core import ws_guard
from games import services
from tests.factories import UserFactory
from tests.games.helpers import current
from tests.games.test_servers import ORIGIN, Process, free_port, serve, tokens_for
from tests.games.test_servers import stack_env as stack_env
from tests.games.test_table_socket_guards import layer_like_the_server as layer_like_the_server

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(240),
]

TIMEOUT = 20
PASSWORD = "an old long passphrase"


@pytest.fixture
def servers(stack_env: dict[str, str], layer_like_the_server: None) -> Iterator[Any]:
    """``start(**env)`` starts servers (two by default) with these variables and returns
    their ports; ``start.processes[port]`` is the server's process."""
    started: dict[int, Process] = {}

    def start(count: int = 2, **env: str) -> list[int]:
        ports = [free_port() for _ in range(count)]
        # The suite's secret key: the servers must accept the sessions the tests sign in.
        env = {**stack_env, "DJANGO_SECRET_KEY": django_settings.SECRET_KEY, **env}
        started.update((port, serve(port, env)) for port in ports)
        return ports

    start.processes = started  # type: ignore[attr-defined]
    yield start
    for process in started.values():
        process.kill()


def path_of(kind: str, table_id: int, tournament_id: int = 1) -> str:
    return {
        "table": f"/ws/tables/{table_id}/",
        "lobby": "/ws/lobby/",
        "tournament": f"/ws/tournaments/{tournament_id}/",
        "notifications": "/ws/notifications/",
        "social": "/ws/social/",
    }[kind]


async def connect(port: int, path: str, token: str | None = None, cookie: str | None = None) -> Any:
    headers = {"Origin": ORIGIN}
    if token is not None:
        headers["Authorization"] = f"Token {token}"
    if cookie is not None:
        headers["Cookie"] = cookie
    return await websockets.connect(f"ws://127.0.0.1:{port}{path}", additional_headers=headers)


async def refused(ws: Any) -> tuple[str | None, int | None]:
    """The error code a socket was sent and its close code, once it has closed (None,
    None when it is still open after a moment)."""
    code = None
    try:
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), 2))
            if message.get("type") == "error":
                code = message["code"]
    except websockets.ConnectionClosed:
        return code, ws.close_code
    except TimeoutError:
        return None, None


async def settled(ws: Any, kind: str) -> None:
    """Wait until the server has taken the socket in (a table's sends its state; others
    are quiet: a ping's answer then shows the server got as far as admitting it)."""
    if kind == "table":
        while json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))["type"] != "state":
            pass
    else:
        await asyncio.wait_for(await ws.ping(), TIMEOUT)


def session_cookie(user: Any) -> str:
    browser = Client()
    browser.force_login(user)
    name = django_settings.SESSION_COOKIE_NAME
    return f"{name}={browser.cookies[name].value}"


# -- caps across processes ------------------------------------------------


@pytest.mark.slow(seconds=30)
def test_each_kind_of_socket_is_capped_per_person_across_two_servers(servers: Any) -> None:
    user = UserFactory()
    table = services.table_create(user=user, players=3)
    (token,) = tokens_for([user])
    ports = servers()
    cap = django_settings.GAMES_WS_MAX_PER_USER

    async def run() -> dict[str, tuple[str | None, int | None]]:
        outcome = {}
        for kind in ("table", "lobby", "tournament", "notifications", "social"):
            path = path_of(kind, table.pk)
            held = [await connect(ports[n % 2], path, token) for n in range(cap)]
            for ws in held:
                await settled(ws, kind)
            extra = [await connect(port, path, token) for port in ports]
            outcome[kind] = await refused(extra[0])
            outcome[kind + " elsewhere"] = await refused(extra[1])
            for ws in held:
                await ws.close()
        return outcome

    outcome = asyncio.run(run())
    assert set(outcome.values()) == {("too_many_connections", 4429)}, outcome


@pytest.mark.slow(seconds=20)
def test_one_address_is_capped_across_two_servers(servers: Any) -> None:
    ports = servers(GAMES_WS_MAX_PER_ADDRESS="6")

    async def run() -> tuple[tuple[str | None, int | None], tuple[str | None, int | None]]:
        held = [await connect(ports[n % 2], "/ws/lobby/") for n in range(6)]
        for ws in held:
            await settled(ws, "lobby")
        seventh = await refused(await connect(ports[0], "/ws/lobby/"))
        await held.pop().close()
        await asyncio.sleep(0.3)
        again = await connect(ports[1], "/ws/lobby/")
        after_one_closed = await refused(again)
        for ws in [*held, again]:
            await ws.close()
        return seventh, after_one_closed

    assert asyncio.run(run()) == (("too_many_connections", 4429), (None, None))


async def given_back(redis_url: str, key: str) -> None:
    """Wait until no socket holds a place under this guard key any more."""
    client = aredis.Redis.from_url(redis_url)
    try:
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            if not await client.zcard(key):
                return
            await asyncio.sleep(0.1)
    finally:
        await client.aclose()


@pytest.mark.slow(seconds=30)
def test_counts_are_given_back_however_a_socket_ends(
    servers: Any, stack_env: dict[str, str]
) -> None:
    """Closed by the client, dropped without a close (the connection cut), refused by
    the cap, closed by a revocation: afterwards the person may open the whole cap again."""
    user = UserFactory(password=PASSWORD)
    (token,) = tokens_for([user])
    ports = servers()
    cap = django_settings.GAMES_WS_MAX_PER_USER

    async def fill(token: str) -> list[Any]:
        held = [await connect(ports[n % 2], "/ws/lobby/", token) for n in range(cap)]
        for ws in held:
            await settled(ws, "lobby")
        return held

    async def run() -> tuple[tuple[str | None, int | None], ...]:
        held = await fill(token)
        over = await refused(await connect(ports[0], "/ws/lobby/", token))
        for ws in held[: cap // 2]:
            await ws.close()  # a clean close
        for ws in held[cap // 2 :]:
            ws.transport.abort()  # the connection cut: no close frame
        # The servers notice a cut connection in their own time (longer on a loaded
        # machine): wait until they have given every place back, not a fixed second.
        await given_back(stack_env["REDIS_URL"], f"{ws_guard.PREFIX}lobby:u:{user.pk}")
        held = await fill(token)
        over_again = await refused(await connect(ports[1], "/ws/lobby/", token))
        new_token = (await database_sync_to_async(token_rotate)(user=user)).key
        closed = [await refused(ws) for ws in held]  # closed by the revocation
        held = await fill(new_token)
        still_over = await refused(await connect(ports[0], "/ws/lobby/", new_token))
        for ws in held:
            await ws.close()
        return over, over_again, *set(closed), still_over

    assert asyncio.run(run()) == (
        ("too_many_connections", 4429),
        ("too_many_connections", 4429),
        ("signed_out", 4401),
        ("too_many_connections", 4429),
    )


@pytest.mark.slow(seconds=40)
def test_the_counts_of_a_server_that_died_run_out(servers: Any) -> None:
    """A server killed with sockets open cannot give their places back: the places are
    leases, which run out; the sockets of a server that lives keep theirs (renewed)."""
    user = UserFactory()
    (token,) = tokens_for([user])
    lease = 3.0
    doomed, living = servers(GAMES_WS_LEASE_SECONDS=str(lease))
    cap = django_settings.GAMES_WS_MAX_PER_USER

    async def run() -> list[tuple[str | None, int | None]]:
        held = [await connect(doomed, "/ws/lobby/", token) for _ in range(cap)]
        for ws in held:
            await settled(ws, "lobby")
        servers.processes[doomed].kill()
        right_after = await refused(await connect(living, "/ws/lobby/", token))
        await asyncio.sleep(lease + 1)
        held = [await connect(living, "/ws/lobby/", token) for _ in range(cap)]
        for ws in held:
            await settled(ws, "lobby")
        await asyncio.sleep(2.5 * lease)  # renewed meanwhile, or they would have run out
        later = await refused(await connect(living, "/ws/lobby/", token))
        for ws in held:
            await ws.close()
        return [right_after, later]

    assert asyncio.run(run()) == [("too_many_connections", 4429)] * 2


# -- revocation ------------------------------------------------------------


def started_for_one(user: Any) -> Any:
    """A started table where ``user`` (seat 1) is the first to act (dealer 2: seat 0
    opens with the forced bid)."""
    creator = UserFactory()
    table = services.table_create(user=creator, players=3, move_seconds=600)
    services.table_join(table=table, user=user)
    services.seat_fill_with_bot(table=table, level="basic", by=creator)
    services.table_start(table=table, user=creator, first_dealer=2)
    return table


async def state_of(ws: Any) -> dict[str, Any]:
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
        if message["type"] == "state":
            return dict(message)


async def act(ws: Any, version: int) -> tuple[str | None, int | None] | str:
    """Send a pass; ``"ack"`` when applied, else what :func:`refused` says."""
    await ws.send(
        json.dumps({"type": "action", "id": "a1", "version": version, "action": {"type": "pass"}})
    )
    try:
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
            if message["type"] == "ack":
                return "ack"
            if message["type"] == "error":
                code = message["code"]
                await refused(ws)
                return code, ws.close_code
    except websockets.ConnectionClosed:
        return None, ws.close_code


@pytest.mark.slow(seconds=20)
def test_a_password_change_closes_the_sockets_of_the_old_token_and_of_other_sessions(
    servers: Any,
) -> None:
    user = UserFactory(password=PASSWORD)
    table = started_for_one(user)
    (token,) = tokens_for([user])
    other_browser = session_cookie(user)
    ports = servers()

    async def run() -> list[tuple[str | None, int | None]]:
        by_token = await connect(ports[0], f"/ws/tables/{table.pk}/", token)
        by_session = await connect(ports[1], f"/ws/tables/{table.pk}/", cookie=other_browser)
        lobby = await connect(ports[1], "/ws/lobby/", cookie=other_browser)
        await state_of(by_token)
        await state_of(by_session)
        await settled(lobby, "lobby")
        await database_sync_to_async(user_password_change)(
            user=user, old_password=PASSWORD, new_password="a new long passphrase"
        )
        return [await refused(ws) for ws in (by_token, by_session, lobby)]

    assert asyncio.run(run()) == [("signed_out", 4401)] * 3
    assert current(table).version == 0


@pytest.mark.slow(seconds=20)
def test_a_socket_that_missed_the_revocation_is_refused_when_it_acts(
    servers: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The message that closes them is lost (a Redis blip, dropped here on purpose): the
    socket of the revoked token, and the one of the session the password change signed
    out, each try the first action of the deal. (The servers check a credential before
    every action: by default only when the last check is older than a few seconds.)"""
    user = UserFactory(password=PASSWORD)
    table = started_for_one(user)
    (token,) = tokens_for([user])
    other_browser = session_cookie(user)
    ports = servers(GAMES_WS_CREDENTIAL_SECONDS="0")
    monkeypatch.setattr(ws_guard, "realtime_send", lambda *args, **kwargs: None)

    async def run() -> list[Any]:
        by_token = await connect(ports[0], f"/ws/tables/{table.pk}/", token)
        by_session = await connect(ports[1], f"/ws/tables/{table.pk}/", cookie=other_browser)
        version = (await state_of(by_token))["version"]
        await state_of(by_session)
        await database_sync_to_async(user_password_change)(
            user=user, old_password=PASSWORD, new_password="a new long passphrase"
        )
        return [await act(by_token, version), await act(by_session, version)]

    assert asyncio.run(run()) == [("signed_out", 4401)] * 2
    assert current(table).version == 0


@pytest.mark.slow(seconds=20)
def test_a_socket_whose_credential_holds_plays_on_after_a_revocation(servers: Any) -> None:
    """The browser that changed the password stays signed in: its socket, told to close
    like every other, connects again and plays."""
    user = UserFactory(password=PASSWORD)
    table = started_for_one(user)
    (token,) = tokens_for([user])
    ports = servers()

    async def run() -> tuple[Any, ...]:
        old = await connect(ports[0], f"/ws/tables/{table.pk}/", token)
        version = (await state_of(old))["version"]
        new_token = (await database_sync_to_async(token_rotate)(user=user)).key
        closed = await refused(old)
        again = await connect(ports[1], f"/ws/tables/{table.pk}/", new_token)
        await state_of(again)
        return closed, await act(again, version)

    assert asyncio.run(run()) == (("signed_out", 4401), "ack")


@pytest.mark.slow(seconds=20)
def test_signing_out_closes_the_sessions_sockets(servers: Any) -> None:
    user = UserFactory(password=PASSWORD)
    browser = Client()
    browser.force_login(user)
    name = django_settings.SESSION_COOKIE_NAME
    cookie = f"{name}={browser.cookies[name].value}"
    (port,) = servers(1)

    async def run() -> list[tuple[str | None, int | None]]:
        sockets = [await connect(port, path_of(kind, 0), cookie=cookie)
                   for kind in ("lobby", "notifications", "tournament", "social")]  # fmt: skip
        for ws in sockets:
            await settled(ws, "lobby")
        started = time.monotonic()
        response = await database_sync_to_async(browser.post)("/accounts/logout/")
        assert response.status_code == 302 and time.monotonic() - started < TIMEOUT
        return [await refused(ws) for ws in sockets]

    assert asyncio.run(run()) == [("signed_out", 4401)] * 4
