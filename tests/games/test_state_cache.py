"""The per-process state cache (games/state/) when a table's players are spread over
several server processes: a process keeps its state of the table in step with the
updates it forwards to its sockets (``follow``), so its next action needs no catch-up
read of the log; and no process keeps the state of a match that has ended, so memory
does not grow with every match (docs/benchmarks.md §4-5)."""

from __future__ import annotations

import asyncio
import copy
import uuid
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connection
from django.test.utils import CaptureQueriesContext

from config.asgi import application
from games import realtime, scheduler, selectors, services
from games import state as table_state
from games.models import Table
from tests.games.helpers import committed, current, human_turn, started_table
from tests.integration.conftest import redis_layer

pytestmark = pytest.mark.django_db

SHORT = {"options": {"target": 100, "barrel": False}}  # a match of a few deals


class Process:
    """Another server process's state cache: inside ``serving()`` the services and
    games.state use it instead of this process's."""

    def __init__(self) -> None:
        self.cache: OrderedDict[int, table_state.TableState] = OrderedDict()
        self.ended: OrderedDict[int, None] = OrderedDict()

    @contextmanager
    def serving(self) -> Iterator[None]:
        mine = table_state._cache, table_state._ended
        table_state._cache, table_state._ended = self.cache, self.ended
        try:
            yield
        finally:
            table_state._cache, table_state._ended = mine


@pytest.fixture
def changes(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any] | None]:
    """The ``change`` of every table update the services send (the messages themselves
    are not published)."""
    sent: list[dict[str, Any] | None] = []

    def record(table_id: int, views: Any, **kwargs: Any) -> None:
        sent.append(kwargs.get("change"))

    monkeypatch.setattr(realtime, "send_views", record)
    return sent


def from_the_log(table_id: int) -> table_state.TableState:
    """The table's state read from the log by a process that kept none."""
    with Process().serving():
        return current(Table.objects.get(pk=table_id))


def submit(table_id: int, seen: table_state.TableState | None = None, *, plain: bool = True) -> int:
    """A legal action for the seat to act, decided from ``seen`` (the state the player
    saw), by default from this process's state of the table (read from the log only if
    this process keeps none): one that does not end the deal when ``plain`` (whatever
    the cards dealt), else the last one the engine lists."""
    state = seen or table_state.cached(table_id) or current(Table.objects.get(pk=table_id))
    seat = state.match.to_act
    assert seat is not None
    legal = state.match.legal_actions()
    action = legal[-1]
    for candidate in legal if plain else []:
        trial = copy.deepcopy(state.match)
        trial.apply(candidate, seat=seat)
        if not (trial.awaiting_deal or trial.over):
            action = candidate
            break
    with committed():
        applied = services.action_submit(
            table_id=table_id, seat=seat, action=action, expected_version=state.version
        )
    return applied.version


def log_reads(queries: CaptureQueriesContext) -> list[str]:
    return [
        q["sql"]
        for q in queries.captured_queries
        if "games_tableaction" in q["sql"] and q["sql"].lstrip().upper().startswith("SELECT")
    ]


def views(state: table_state.TableState) -> list[Any]:
    return [state.match.view(seat).to_dict() for seat in (0, 1, 2, None)]


def played_elsewhere(actions: int) -> Table:
    """A table whose first action this process served (so it keeps the table's state),
    and whose next ``actions`` another process served."""
    table, _ = started_table(humans=3, bots=0)
    submit(table.pk)
    with Process().serving():
        for _ in range(actions):
            submit(table.pk)
    return table


def test_a_process_that_follows_an_update_serves_the_next_action_without_reading_the_log(
    changes: list[dict[str, Any] | None],
) -> None:
    table = played_elsewhere(1)
    assert changes[-1] is not None
    table_state.follow(table.pk, changes[-1])
    with CaptureQueriesContext(connection) as queries:
        version = submit(table.pk)
    assert (version, log_reads(queries)) == (3, [])


def test_a_process_ignores_an_update_that_is_not_the_next_version(
    changes: list[dict[str, Any] | None],
) -> None:
    table = played_elsewhere(2)
    assert changes[-1] is not None
    table_state.follow(table.pk, changes[-1])  # version 3 reaches a state at version 1
    state = table_state.cached(table.pk)
    assert state is not None and state.version == 1


def test_following_plain_updates_gives_the_state_the_log_gives(
    changes: list[dict[str, Any] | None],
) -> None:
    table = played_elsewhere(6)
    for change in changes[1:]:
        assert change is not None
        table_state.follow(table.pk, change)
    mine = table_state.cached(table.pk)
    assert mine is not None
    assert (mine.version, views(mine)) == (7, views(from_the_log(table.pk)))


def played_past_a_deal_s_end(changes: list[dict[str, Any] | None]) -> Table:
    """A table whose first action this process served, and whose actions to the end of
    the first deal and three more another process served."""
    table, _ = started_table(humans=3, bots=0)
    submit(table.pk)
    with Process().serving():
        while "deal" not in (changes[-1] or {}):
            submit(table.pk, plain=False)
        for _ in range(3):
            submit(table.pk)
    return table


def test_a_follower_deals_the_next_deal_from_the_update_that_ends_a_deal(
    changes: list[dict[str, Any] | None],
) -> None:
    table = played_past_a_deal_s_end(changes)
    for change in changes[1:]:
        assert change is not None
        table_state.follow(table.pk, change)
    mine = table_state.cached(table.pk)
    assert mine is not None
    played = Table.objects.get(pk=table.pk).version
    assert (mine.version, views(mine)) == (played, views(from_the_log(table.pk)))
    with CaptureQueriesContext(connection) as queries:
        submit(table.pk)
    assert log_reads(queries) == []


def test_a_follower_given_a_deal_s_end_without_the_next_deal_catches_up_from_the_log(
    changes: list[dict[str, Any] | None],
) -> None:
    table = played_past_a_deal_s_end(changes)
    for change in changes[1:]:
        assert change is not None
        table_state.follow(table.pk, {k: v for k, v in change.items() if k != "deal"})
    version = submit(table.pk, seen=from_the_log(table.pk))
    mine = table_state.cached(table.pk)
    assert mine is not None
    assert (mine.version, views(mine)) == (version, views(from_the_log(table.pk)))


def play_until_finished(table: Table) -> None:
    """Bots' turns and the person's until the match ends, reading the table's state
    only while it is playing."""
    while Table.objects.filter(pk=table.pk, status=Table.Status.PLAYING).exists():
        with committed():
            ran = scheduler.run_pending(limit=1)
        if not ran:
            table.refresh_from_db()
            assert human_turn(table), "nobody can move at a playing table"


def test_the_process_that_ends_a_match_keeps_no_state_of_it(
    changes: list[dict[str, Any] | None],
) -> None:
    table, _ = started_table(humans=1, bots=2, **SHORT)
    play_until_finished(table)
    assert table_state.cached(table.pk) is None


def test_a_process_that_kept_a_match_drops_it_when_the_end_of_the_match_reaches_it(
    changes: list[dict[str, Any] | None],
) -> None:
    table, _ = started_table(humans=1, bots=2, **SHORT)
    current(table)  # this process keeps the table's state
    with Process().serving():
        play_until_finished(table)
    ended = changes[-1]
    assert ended is not None and ended.get("ended")
    table_state.follow(table.pk, ended)
    assert table_state.cached(table.pk) is None


def test_a_state_read_as_the_match_ended_elsewhere_is_not_kept_after_the_end_passed(
    changes: list[dict[str, Any] | None],
) -> None:
    table, _ = started_table(humans=1, bots=2, **SHORT)
    read_before_the_end = Table.objects.get(pk=table.pk)
    with Process().serving():
        play_until_finished(table)
    ended = changes[-1]
    assert ended is not None
    table_state.follow(table.pk, ended)  # nothing kept here yet: nothing to drop
    with table_state.locked(read_before_the_end):  # the reader's state is built after
        pass
    assert table_state.cached(table.pk) is None


def test_reading_a_finished_table_keeps_no_state_of_it(
    changes: list[dict[str, Any] | None],
) -> None:
    table, users = started_table(humans=1, bots=2, **SHORT)
    play_until_finished(table)
    message = selectors.table_state_message(table_id=table.pk, user=users[0])
    assert message["result"] is not None and message["view"] is not None
    assert table_state.cached(table.pk) is None


def test_the_cache_keeps_its_bound_dropping_the_least_recently_used_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(table_state, "CACHE_SIZE", 2)
    first, second, third = (started_table(humans=3, bots=0)[0] for _ in range(3))
    current(first)
    current(second)
    current(first)  # used again: the second is now the least recently used
    current(third)
    kept = [table_state.cached(t.pk) is not None for t in (first, second, third)]
    assert kept == [True, False, True]


# -- through a socket: the process forwards the update and follows it ---------------------


@pytest.mark.asyncio
@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
async def test_a_socket_s_process_follows_the_update_before_forwarding_it(
    settings: Any, redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without an owner per table (every process writes, and keeps its copy in step)."""
    settings.GAMES_TABLE_OWNER = False
    settings.CHANNEL_LAYERS = redis_layer(redis_url, prefix=f"test-{uuid.uuid4().hex[:8]}")
    # In a plain thread: the start's messages are published before the socket connects.
    table, token = await asyncio.to_thread(_started_with_token)
    ws = WebsocketCommunicator(
        application,
        f"/ws/tables/{table.pk}/?token={token}",
        headers=[(b"origin", b"http://127.0.0.1:8000")],
    )
    connected, _ = await ws.connect()
    assert connected
    await ws.receive_json_from(timeout=5)  # the state: this process now keeps the table
    sent: list[tuple[int, list[tuple[int | None, str]], dict[str, Any]]] = []
    publish = realtime.send_views

    def elsewhere() -> None:
        """Another process commits the next action: its update is held back here and
        published afterwards, as that process would."""
        with Process().serving():
            monkeypatch.setattr(realtime, "send_views", lambda t, v, **kw: sent.append((t, v, kw)))
            try:
                submit(table.pk)
            finally:
                monkeypatch.setattr(realtime, "send_views", publish)

    await sync_to_async(elsewhere)()
    table_id, views, extra = sent[-1]
    await sync_to_async(realtime.send_views)(table_id, views, **extra)
    await asyncio.wait_for(_update(ws, 1), 10)
    state = table_state.cached(table.pk)
    assert state is not None and state.version == 1
    await ws.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_process_drops_its_copy_of_a_table_when_its_last_socket_there_closes() -> None:
    table, token = await asyncio.to_thread(_started_with_token)
    sockets = [
        WebsocketCommunicator(
            application,
            f"/ws/tables/{table.pk}/?token={token}",
            headers=[(b"origin", b"http://127.0.0.1:8000")],
        )
        for _ in range(2)
    ]
    for ws in sockets:
        assert (await ws.connect())[0]
        await ws.receive_json_from(timeout=5)  # the state: this process keeps the table
    kept = []
    for ws in sockets:
        kept.append(table_state.cached(table.pk) is not None)
        await ws.disconnect()
    kept.append(table_state.cached(table.pk) is not None)
    assert kept == [True, True, False]


def _started_with_token() -> tuple[Table, str]:
    from rest_framework.authtoken.models import Token

    try:
        table, users = started_table(humans=3, bots=0)
        return table, Token.objects.get_or_create(user=users[0])[0].key
    finally:
        connection.close()


async def _update(ws: WebsocketCommunicator, version: int) -> dict[str, Any]:
    """The update to ``version`` (the start's own messages may still be on their way)."""
    while True:
        message = await ws.receive_json_from(timeout=5)
        if message["type"] == "update" and message["version"] == version:
            return message


def test_a_match_cut_at_a_deal_s_end_read_again_from_the_log_deals_no_further_deal(
    changes: list[dict[str, Any] | None],
) -> None:
    table, _ = started_table(humans=1, bots=2)
    services.table_finish_after_deal(table=table)
    play_until_finished(table)
    state = from_the_log(table.pk)
    assert (state.match.to_act, state.dealing) == (None, 0)
