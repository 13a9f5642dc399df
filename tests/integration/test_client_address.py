"""The sign-up limit holds against a forged ``X-Forwarded-For`` in every documented way of
running the service: uvicorn alone as the Dockerfile starts it (two
workers), ``scripts/stack --web 1`` with its HAProxy, and the compose deployment
(``deploy/haproxy.cfg`` in front of the compose file's web command, with its
environment). A client sends four sign-ups, each with a fresh forged header: the fourth
is refused (three an hour here, tests/integration/address_settings.py); a second client
address is still served, so the servers do not count everyone as the proxy.

Why each way needs its setting: uvicorn's ``--proxy-headers`` alone takes the header as
the client's address from 127.0.0.1 by default (uvicorn alone, and behind the stack's
HAProxy, whose address that is), and its left-most entry with ``--forwarded-allow-ips=*`` (compose).
"""

from __future__ import annotations

import http.client
import json
import re
import shlex
import socket
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from bench.haproxy import local_config
from tests.games.test_servers import stack_env  # noqa: F401  (a fixture)
from tests.integration.processes import Stack, free_port, haproxy_binary, wait_until

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(600),
]

ROOT = Path(__file__).resolve().parents[2]
CLIENT, OTHER_CLIENT = "127.0.0.1", "127.0.0.3"  # both loopback: connections from either


def signup(port: int, username: str, forwarded_for: str, source: str = CLIENT) -> int:
    connection = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=60, source_address=(source, 0)
    )
    try:
        body = json.dumps({"username": username, "password": "a long passphrase 7"})
        connection.request(
            "POST",
            "/api/v1/auth/signup/",
            body,
            {"Content-Type": "application/json", "X-Forwarded-For": forwarded_for},
        )
        return connection.getresponse().status
    finally:
        connection.close()


def serving(port: int) -> bool:
    """The server, or HAProxy with a server in its rotation, answers (a 503 is HAProxy's
    own before its first health check passed)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", "/healthz")
        return connection.getresponse().status != 503
    except OSError:
        return False
    finally:
        connection.close()


def assert_the_limit_holds(port: int) -> None:
    tag = uuid.uuid4().hex[:8]
    statuses = [signup(port, f"forger{tag}{n}", f"10.{n}.0.1") for n in range(4)]

    assert statuses == [201, 201, 201, 429]
    assert signup(port, f"other{tag}", "10.99.0.1", source=OTHER_CLIENT) == 201


@pytest.fixture
def env(stack_env: dict[str, str]) -> dict[str, str]:  # noqa: F811  (the imported fixture)
    return {
        **{k: v for k, v in stack_env.items() if k != "DJANGO_TRUSTED_PROXIES"},
        "DJANGO_SETTINGS_MODULE": "tests.integration.address_settings",
        "ADDRESS_TEST_CACHE_PREFIX": f"address-{uuid.uuid4().hex}",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost,web",
        "DJANGO_STATIC_MANIFEST": "false",
    }


@pytest.fixture
def started(tmp_path: Path) -> Iterator[Callable[..., subprocess.Popen[bytes]]]:
    processes: list[subprocess.Popen[bytes]] = []

    def start(command: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
        # No Celery beat here: bots on the server's loop, so /healthz (and HAProxy's
        # check of it) is not failed for a sweep nobody runs.
        env = {**env, "GAMES_SCHEDULER": "loop"}
        log = (tmp_path / "servers.log").open("a")
        processes.append(
            subprocess.Popen(
                command, cwd=ROOT, env=env, stdout=log, stderr=log, start_new_session=True
            )
        )
        return processes[-1]

    yield start
    if (tmp_path / "servers.log").exists():
        print((tmp_path / "servers.log").read_text()[-5000:])  # shown when a test fails
    for process in processes:
        process.terminate()
    for process in processes:
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


def uvicorn(command: list[str], port: int) -> list[str]:
    """A documented uvicorn command, on this machine: this interpreter, a free port."""
    assert command[0] == "uvicorn", command
    args = [sys.executable, "-m", "uvicorn", *command[1:]]
    args[args.index("--host") + 1] = "127.0.0.1"
    args[args.index("--port") + 1] = str(port)
    return args


def dockerfile_command() -> list[str]:
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    found = re.search(r"(?m)^CMD (\[.*\])\s*$", text)
    assert found is not None
    command: list[str] = json.loads(found.group(1))
    return command


@pytest.mark.slow(seconds=30)
def test_uvicorn_alone_as_the_dockerfile_starts_it(env: dict[str, str], started: Any) -> None:
    port = free_port()
    started(uvicorn(dockerfile_command(), port), env)
    assert wait_until(lambda: serving(port), 180, 0.5)

    assert_the_limit_holds(port)


@pytest.mark.slow(seconds=60)
def test_scripts_stack_behind_its_haproxy(env: dict[str, str], tmp_path: Path) -> None:
    port = free_port()
    stack = Stack(
        {**env, "PORT": str(port), "HAPROXY": haproxy_binary(), "BOTS_CONCURRENCY": "1"},
        tmp_path / "stack.log",
        "--web",
        "1",
    )
    try:
        ready = wait_until(lambda: "balancer" in stack.pids() and serving(port), 300, 0.5)
        assert ready, stack.log.read_text()

        assert_the_limit_holds(port)
    finally:
        stack.stop()


@pytest.mark.slow(seconds=30)
def test_the_compose_deployment_behind_its_haproxy(
    env: dict[str, str], started: Any, tmp_path: Path
) -> None:
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    web = compose["services"]["web"]
    replica = free_port()
    started(
        uvicorn(shlex.split(web["command"]), replica),
        {**env, "DJANGO_TRUSTED_PROXIES": web["environment"]["DJANGO_TRUSTED_PROXIES"]},
    )
    port = free_port()
    config = tmp_path / "haproxy.cfg"
    config.write_text(local_config([replica], port, maxconn=200))
    started([haproxy_binary(), "-db", "-f", str(config)], env)
    assert wait_until(lambda: serving(port), 180, 0.5)

    assert_the_limit_holds(port)


def answers(host: str, port: int) -> bool:
    """Something accepts a TCP connection at host:port."""
    try:
        socket.create_connection((host, port), timeout=5).close()
    except OSError:
        return False
    return True


@pytest.mark.slow(seconds=60)
def test_scripts_stack_keeps_its_web_servers_on_the_loopback_behind_haproxy(
    env: dict[str, str], tmp_path: Path
) -> None:
    # 127.0.0.2 stands for a public address: HAProxy listens there, the web server must
    # not, or a client could reach it directly and write its own X-Forwarded-For.
    public, port = "127.0.0.2", free_port()
    stack = Stack(
        {**env, "HOST": public, "PORT": str(port), "HAPROXY": haproxy_binary(), "BOTS_CONCURRENCY": "1"},
        tmp_path / "stack.log",
        "--web",
        "1",
    )  # fmt: skip
    try:
        ready = wait_until(
            lambda: "balancer" in stack.pids() and answers("127.0.0.1", port + 1), 300, 0.5
        )
        assert ready, stack.log.read_text()
        assert wait_until(lambda: answers(public, port), 60, 0.5), stack.log.read_text()

        assert not answers(public, port + 1)
    finally:
        stack.stop()
