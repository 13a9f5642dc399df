"""Live updates of a tournament's pages: one channel-layer group per tournament. The
message only says "changed"; the page fetches its parts again."""

from __future__ import annotations

import json
import logging

from games import realtime

log = logging.getLogger(__name__)


def group(tournament_id: int) -> str:
    return f"tournament.{tournament_id}"


def tournament_changed(tournament_id: int) -> None:
    try:
        text = json.dumps({"type": "changed", "tournament": tournament_id})
        realtime.send([(group(tournament_id), text)])
    except Exception:  # a page update must never break the tournament
        log.exception("could not announce a change of tournament %s", tournament_id)
