"""One owner per live table (games/owner.py) on real PostgreSQL and Redis: the advisory
lock taken and given back, a command from another process answered by the owner, the
owner's connection killed and the table taken over from the log, a stale owner's write
refused by the fence. Each ``Registry`` plays one server process: its own lock
connection and its own command channel."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.db import connection

from games import errors, owner
from games.bots import make_bot
from games.models import Table, TableAction
from tests.games.helpers import current, human_turn, open_table
from tests.integration.conftest import redis_layer, require_postgres_database

pytestmark = [pytest.mark.asyncio, pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _owners_on(settings: Any, redis_url: str) -> None:
    require_postgres_database()
    settings.CHANNEL_LAYERS = redis_layer(redis_url, prefix=f"test-{uuid.uuid4().hex[:8]}")
    settings.GAMES_TABLE_OWNER = True
    settings.GAMES_TABLE_OWNER_TIMEOUT = 2.0


@pytest.fixture
def processes() -> Iterator[list[owner.Registry]]:
    made = [owner.Registry(), owner.Registry()]
    yield made
    for registry in made:
        registry.close()


async def started() -> tuple[Table, list[Any]]:
    def start() -> tuple[Table, list[Any]]:
        from games import services

        table, users = open_table(humans=3, bots=0)
        services.table_start(table=table, user=users[0])
        table.refresh_from_db()
        return table, users

    return await sync_to_async(start)()


async def next_move(table: Table, users: list[Any]) -> tuple[dict[str, Any], Any]:
    """The command of the person to act (a basic bot's choice), and that person."""

    def read() -> tuple[dict[str, Any], Any]:
        state = current(table)
        seat = state.match.to_act
        assert seat is not None
        holder = table.seats.get(number=seat).user_id
        user = next(u for u in users if u.pk == holder)
        action = make_bot("basic", seed=state.version).decide(state.match.view(seat))
        command = {
            "table_id": table.pk,
            "command": "action",
            "user_id": user.pk,
            "action": action.to_dict(),
            "version": state.version,
            "client_id": uuid.uuid4().hex,
        }
        return command, user

    return await sync_to_async(read)()


def log_versions(table_id: int) -> list[int]:
    return list(
        TableAction.objects.filter(table_id=table_id)
        .order_by("version")
        .values_list("version", flat=True)
    )


def lock_holders(table_id: int) -> list[int]:
    """The backends that hold the table's ownership lock."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted"
            " AND classid = %s AND objid = %s AND objsubid = 2",
            [owner.LOCK_NAMESPACE, table_id],
        )
        return [pid for (pid,) in cursor.fetchall()]


def terminate(pid: int) -> None:
    """Kill a backend, as a dying process or a cut network would, and wait until its
    locks are gone (PostgreSQL frees them as the backend exits)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
        for _ in range(200):
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [pid])
            if cursor.fetchone()[0] == 0:
                return
            cursor.execute("SELECT pg_sleep(0.05)")
    raise AssertionError(f"backend {pid} did not end")


async def test_ownership_is_taken_by_one_process_and_given_back(
    processes: list[owner.Registry],
) -> None:
    a, b = processes
    table, _ = await started()
    assert await a.take(table.pk)
    assert a.owns(table.pk)
    assert not await b.take(table.pk)  # another process owns it
    assert await sync_to_async(lock_holders)(table.pk) == [a._conn.info.backend_pid]
    await a.release(table.pk)
    assert not a.owns(table.pk)
    assert await sync_to_async(lock_holders)(table.pk) == []
    assert await b.take(table.pk)
    assert await sync_to_async(lock_holders)(table.pk) == [b._conn.info.backend_pid]


async def test_a_command_from_another_process_reaches_the_owner_and_gets_its_answer(
    processes: list[owner.Registry],
) -> None:
    a, b = processes
    table, users = await started()
    assert await a.take(table.pk)
    command, _ = await next_move(table, users)
    # b has no user object: the owner loads the person from the command.
    answer = await b.submit(command)
    assert answer == {"version": command["version"] + 1, "duplicate": False}
    assert not b.owns(table.pk) and table.pk in b.elsewhere
    assert a.tables[table.pk].version == answer["version"]
    # The same message again (a client resending it) is the same action, not a second.
    again = await b.submit(command)
    assert again == {"version": answer["version"], "duplicate": True}
    # An error comes back as the service raised it.
    wrong = {**command, "version": 0, "client_id": uuid.uuid4().hex}
    with pytest.raises(errors.StaleVersion):
        _raise(await b.submit(wrong))
    assert await sync_to_async(log_versions)(table.pk) == list(range(1, answer["version"] + 1))


def _raise(answer: dict[str, Any]) -> None:
    if "error" in answer:
        raise owner._error(answer)


async def test_the_owners_connection_killed_another_process_takes_over_from_the_log(
    processes: list[owner.Registry],
) -> None:
    a, b = processes
    table, users = await started()
    command, user = await next_move(table, users)
    first = await a.submit(command, user)
    assert a.owns(table.pk) and first["version"] == command["version"] + 1
    await sync_to_async(terminate)(a._conn.info.backend_pid)
    # The lock went with the connection: b takes the table and rebuilds it from the log.
    assert await b.take(table.pk)
    command, user = await next_move(table, users)
    second = await b.submit(command, user)
    assert second["version"] == first["version"] + 1
    # a finds its connection dead and drops everything it owned.
    assert not await sync_to_async(a.check)()
    assert not a.owns(table.pk)
    assert await sync_to_async(log_versions)(table.pk) == list(range(1, second["version"] + 1))


async def test_a_stale_owners_write_is_refused_by_the_fence(
    processes: list[owner.Registry],
) -> None:
    a, b = processes
    table, users = await started()
    command, user = await next_move(table, users)
    first = await a.submit(command, user)
    # a is cut off without knowing it; b takes the table over and moves it on.
    await sync_to_async(terminate)(a._conn.info.backend_pid)
    assert await b.take(table.pk)
    taken_over, other = await next_move(table, users)
    moved = await b.submit(taken_over, other)
    assert moved["version"] == first["version"] + 1
    # a still believes it owns the table at the version it wrote last, and tries a
    # second action at the version b has written: refused; a drops the table.
    stale = {**taken_over, "client_id": uuid.uuid4().hex}
    assert a.owns(table.pk)
    answer = await a.submit(stale, other)
    assert answer["error"] == errors.StaleVersion.code
    assert not a.owns(table.pk)
    assert await sync_to_async(log_versions)(table.pk) == list(range(1, moved["version"] + 1))
    assert (
        await sync_to_async(
            TableAction.objects.filter(table_id=table.pk, version=moved["version"]).count
        )()
        == 1
    )


async def test_with_no_owner_answering_the_command_is_written_through_the_fence(
    processes: list[owner.Registry], settings: Any
) -> None:
    """The owner holds the lock but does not answer (paused): the command waits its
    timeout, then is written by the process that got it; the owner catches up after."""
    settings.GAMES_TABLE_OWNER_TIMEOUT = 0.3
    a, b = processes
    table, users = await started()
    assert await a.take(table.pk)
    assert a._listener is not None
    a._listener.cancel()  # a hears nothing any more
    command, user = await next_move(table, users)
    written = await b.submit(command, user)
    assert written == {"version": command["version"] + 1, "duplicate": False}
    assert not b.owns(table.pk)
    # a's next command starts from a version it did not write.
    command, user = await next_move(table, users)
    after = await a.submit(command, user)
    assert after["version"] == written["version"] + 1
    assert await sync_to_async(log_versions)(table.pk) == list(range(1, after["version"] + 1))


async def test_a_table_given_up_is_taken_by_the_next_process_that_gets_a_command(
    processes: list[owner.Registry], settings: Any
) -> None:
    settings.GAMES_TABLE_OWNER_TIMEOUT = 0.3
    a, b = processes
    table, users = await started()
    command, user = await next_move(table, users)
    await b.submit(command, user)
    command, user = await next_move(table, users)
    assert (await a.submit(command, user))["version"] == command["version"] + 1
    assert table.pk in a.elsewhere  # b owns it: a asked b
    await b.release(table.pk)
    command, user = await next_move(table, users)
    assert (await a.submit(command, user))["version"] == command["version"] + 1
    assert a.owns(table.pk) and table.pk not in a.elsewhere


async def test_a_dead_ownership_connection_is_found_by_the_owners_own_check(
    processes: list[owner.Registry], settings: Any
) -> None:
    settings.GAMES_TABLE_OWNER_CHECK_SECONDS = 0.05
    a, _ = processes
    table, users = await started()
    command, user = await next_move(table, users)
    await a.submit(command, user)
    await sync_to_async(terminate)(a._conn.info.backend_pid)
    for _ in range(200):
        if not a.owns(table.pk):
            break
        await asyncio.sleep(0.05)
    assert not a.owns(table.pk)


async def test_a_players_return_and_an_unknown_command_go_through_the_owner(
    processes: list[owner.Registry],
) -> None:
    a, _ = processes
    table, users = await started()
    back = {"table_id": table.pk, "command": "back", "user_id": users[0].pk}
    assert await a.submit(back) == {}
    unknown = {**back, "command": "fold"}
    with pytest.raises(errors.UnknownType):
        _raise(await a.submit(unknown))


async def test_an_answers_error_is_raised_as_the_service_raised_it() -> None:
    error = owner._error({"error": "not_your_turn", "message": "wait"})
    assert isinstance(error, errors.NotYourTurn) and error.message == "wait"
    other = owner._error({"error": "something_new", "message": "new"})
    assert type(other) is errors.TableError and other.code == "something_new"


async def test_two_commands_taking_a_table_at_once_leave_one_lock_to_give_back(
    processes: list[owner.Registry],
) -> None:
    a, b = processes
    table, _ = await started()
    assert await asyncio.gather(a.take(table.pk), a.take(table.pk)) == [True, True]
    await a.release(table.pk)
    assert await sync_to_async(lock_holders)(table.pk) == []
    assert await b.take(table.pk)


async def bot_to_act() -> Table:
    """A started table (one person, two basic bots) at a bot's turn."""

    def start() -> Table:
        from games import scheduler, services

        table, users = open_table(humans=1, bots=2)
        services.table_start(table=table, user=users[0])
        while True:
            table.refresh_from_db()
            state = current(table)
            seat = state.match.to_act
            assert seat is not None
            if table.seats.get(number=seat).played_by_bot:
                scheduler.discard_pending()  # the bots' turns are played by hand below
                return table
            human_turn(table)

    return await sync_to_async(start)()


async def test_a_bots_move_from_a_worker_is_played_by_the_tables_owner(
    processes: list[owner.Registry],
) -> None:
    """A Celery worker never owns: it decides the bot's move and the owner writes it, so
    the owner's own state is at the new version (no catch-up at the next action)."""
    from games import services

    a, _ = processes
    table = await bot_to_act()
    assert await a.take(table.pk)
    played = await sync_to_async(services.bot_play)(table_id=table.pk, version=table.version)
    assert played
    assert a.tables[table.pk].version == table.version + 1
    assert await sync_to_async(log_versions)(table.pk) == list(range(1, table.version + 2))


async def test_a_bots_move_at_a_table_nobody_owns_is_written_by_the_worker(
    processes: list[owner.Registry],
) -> None:
    from games import services

    a, _ = processes
    table = await bot_to_act()
    played = await sync_to_async(services.bot_play)(table_id=table.pk, version=table.version)
    assert played and not a.owns(table.pk)
    assert await sync_to_async(log_versions)(table.pk) == list(range(1, table.version + 2))


async def test_a_stale_bot_move_sent_to_the_owner_is_refused_and_changes_nothing(
    processes: list[owner.Registry],
) -> None:
    from games import services

    a, _ = processes
    table = await bot_to_act()
    seat, action = await sync_to_async(_bots_choice)(table)
    assert await a.take(table.pk)
    assert await sync_to_async(services.bot_play)(table_id=table.pk, version=table.version)
    with pytest.raises(errors.StaleVersion):
        await sync_to_async(owner.turn_at_owner)(
            table_id=table.pk,
            seat=seat,
            action=action,
            expected_version=table.version,
            source="bot",
        )
    assert await sync_to_async(log_versions)(table.pk) == list(range(1, table.version + 2))


def _bots_choice(table: Table) -> tuple[int, Any]:
    state = current(table)
    seat = state.match.to_act
    assert seat is not None
    return seat, make_bot("basic", seed=state.version).decide(state.match.view(seat))


async def test_a_process_that_owns_no_table_gives_its_command_channel_back(
    processes: list[owner.Registry], redis_url: str
) -> None:
    a, b = processes
    table, users = await started()
    assert await a.take(table.pk)
    first = a.channel
    assert first is not None
    await a.release(table.pk)
    assert a.channel is None and a._listener is None
    # Taken again, it hears the table's commands on a new channel.
    assert await a.take(table.pk)
    assert a.channel not in (None, first)
    command, _ = await next_move(table, users)
    assert (await b.submit(command))["version"] == command["version"] + 1
    assert a.tables[table.pk].version == command["version"] + 1


async def test_a_tables_sockets_taking_it_at_once_ask_postgresql_once(
    processes: list[owner.Registry], monkeypatch: pytest.MonkeyPatch
) -> None:
    a, _ = processes
    table, _ = await started()
    statements: list[str] = []
    locking = a._locking

    def counted(sql: str, table_id: int) -> bool:
        statements.append(sql)
        return locking(sql, table_id)

    monkeypatch.setattr(a, "_locking", counted)
    assert await asyncio.gather(*(a.take(table.pk) for _ in range(3))) == [True] * 3
    assert statements == ["SELECT pg_try_advisory_lock(%s, %s)"]


async def test_a_command_for_an_owner_that_hears_nothing_is_written_without_waiting(
    processes: list[owner.Registry], settings: Any
) -> None:
    """The lock is held but no process listens for the table's commands (Redis restarted
    and the owner has not subscribed again): nobody would answer, so the command does
    not wait for the owner's timeout; it is written through the fence."""
    settings.GAMES_TABLE_OWNER_TIMEOUT = 60.0
    a, b = processes
    table, users = await started()
    assert await a.take(table.pk)
    await a._stop_listening()  # a holds the lock and hears nothing
    command, user = await next_move(table, users)
    written = await asyncio.wait_for(b.submit(command, user), 10)
    assert written == {"version": command["version"] + 1, "duplicate": False}
    assert not b.owns(table.pk)
