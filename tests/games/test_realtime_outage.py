"""A broadcast after commit that cannot reach the channel layer (core/realtime.py)."""

from __future__ import annotations

import logging
from typing import Any

from games import realtime
from tests.integration.conftest import redis_layer
from tests.integration.processes import free_port


def test_a_publish_that_fails_after_commit_is_logged_not_raised(settings: Any, caplog: Any) -> None:
    # The action it announces is committed already: the caller (a Celery task playing a
    # bot's turn, a view) must not fail for it, or it would be retried.
    settings.CHANNEL_LAYERS = redis_layer(
        f"redis://127.0.0.1:{free_port()}/0", prefix="nobody-listens"
    )

    with caplog.at_level(logging.ERROR, logger="core.realtime"):
        realtime.send([(realtime.seat_group(1, 0), '{"type":"update"}')])

    assert "publishing 1 table messages failed" in caplog.text
