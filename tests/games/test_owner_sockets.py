"""The table websocket's tests again with one owner per table (``GAMES_TABLE_OWNER``):
every action, seed and return goes through the table's owner (games/owner.py) and the
socket forwards what the owner publishes, through the Redis channel layer."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from games import owner
from tests.games.test_consumers import (  # noqa: F401  (the tests run here again)
    _redis_channel_layer,
    test_a_client_seed_goes_into_the_next_dealing,
    test_a_reconnect_mid_deal_gets_the_same_view,
    test_a_resent_message_id_applies_once,
    test_a_spectator_may_not_act,
    test_a_stale_version_error_is_followed_by_the_current_state,
    test_an_action_out_of_turn_is_refused,
    test_bots_play_their_turns_and_the_person_sees_them,
    test_each_seat_receives_only_its_own_hand,
    test_resigning_the_only_person_ends_the_match_with_a_result_and_says_so,
    test_three_clients_play_a_whole_deal_and_each_sees_every_move,
)
from tests.integration.conftest import require_postgres_database

pytestmark = [pytest.mark.asyncio, pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _owner_on(settings: Any) -> Iterator[None]:
    require_postgres_database()
    settings.GAMES_TABLE_OWNER = True
    yield
    owner.registry.close()
