"""The owner's updates to its own sockets (games/owner.py, core/realtime.py) on real
PostgreSQL and Redis: a table nobody else watches has its updates delivered straight to
this process's sockets and never published; once another process says it has sockets
there, they are published too, and this process's own sockets still get each once; and
the owner's own write (games/owner_write.py) leaves the log as the whole path does."""

from __future__ import annotations

import time
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from core import realtime as core_realtime
from games import owner
from games.models import TableAction
from tests.games.test_consumers import (  # noqa: F401  (its Redis layer, for every test here)
    _redis_channel_layer,
    choice,
    three_people,
    to_act,
)
from tests.games.test_owner_sockets import _owner_on  # noqa: F401  (the owner on, every test)

pytestmark = [pytest.mark.asyncio, pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def published(monkeypatch: pytest.MonkeyPatch) -> list[core_realtime.Message]:
    """Every message this process publishes to Redis (still published: only watched)."""
    seen: list[core_realtime.Message] = []
    publish = core_realtime.publish

    async def watched(batch: list[core_realtime.Message]) -> None:
        seen.extend(batch)
        await publish(batch)

    monkeypatch.setattr(core_realtime, "publish", watched)
    return seen


def _table_messages(seen: list[core_realtime.Message], table_id: int) -> list[Any]:
    return [m for m in seen if m[0] == "table.message" and m[1].startswith(f"table.{table_id}.")]


async def _one_move(players: list[Any]) -> int:
    actor = to_act(players)
    await actor.act(choice(actor.view))  # type: ignore[arg-type]
    versions = {(await player.receive_type("update"))["version"] for player in players}
    assert len(versions) == 1
    return versions.pop()


async def test_an_owned_table_nobody_else_watches_is_never_published(
    published: list[core_realtime.Message], settings: Any
) -> None:
    settings.GAMES_TABLE_OWNER_WATCH_SECONDS = 0.0  # nobody watched it under a former owner
    table, players = await three_people()
    assert owner.registry.owns(table.pk)
    published.clear()
    version = await _one_move(players)
    assert _table_messages(published, table.pk) == [] and version == players[0].version


async def test_a_watched_tables_updates_are_published_and_its_own_sockets_get_each_once(
    published: list[core_realtime.Message], settings: Any
) -> None:
    settings.GAMES_TABLE_OWNER_WATCH_SECONDS = 30.0
    table, players = await three_people()
    # Another process says it has sockets at the table (what its ``watch`` sends).
    owner.registry.tables[table.pk].watched_until = time.monotonic() + 30
    published.clear()
    first = await _one_move(players)
    second = await _one_move(players)
    sent = _table_messages(published, table.pk)
    assert second == first + 1 and len(sent) == 2 * 4  # three seats and the spectators
    assert all(extra and extra["origin"] == core_realtime.ORIGIN for *_, extra in sent)
    for player in players:  # the copies Redis brought back were dropped: nothing more
        with pytest.raises(TimeoutError):
            await player.ws.receive_from(timeout=0.3)


async def test_the_owners_own_writes_leave_one_log_row_per_version(settings: Any) -> None:
    table, players = await three_people()
    for _ in range(12):
        await _one_move(players)
    versions = await sync_to_async(
        lambda: list(
            TableAction.objects.filter(table_id=table.pk)
            .order_by("version")
            .values_list("version", flat=True)
        )
    )()
    assert versions == list(range(1, players[0].version + 1)) and len(versions) >= 12
    assert owner.registry.writer.connection is not None  # written by the owner's own write
