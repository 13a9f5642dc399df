"""The embedded default (SQLite, the in-memory channel layer, one process) with one
owner per table: the process owns every table with no lock, and a deal against two
bots plays over a real websocket as without it."""

from __future__ import annotations

import pytest

from tests.games import test_embedded as embedded
from tests.games.test_embedded import embedded_server  # noqa: F401  (the fixture)

pytestmark = pytest.mark.timeout(180)


@pytest.fixture
def owner_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GAMES_TABLE_OWNER", "true")  # the server started below inherits it


def test_a_deal_against_two_bots_plays_with_one_owner_per_table(
    owner_on: None,
    embedded_server: int,  # noqa: F811
) -> None:
    embedded.test_a_deal_against_two_bots_plays_in_the_embedded_default(embedded_server)
