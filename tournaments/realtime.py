"""Live updates of a tournament's pages: one channel-layer group per tournament; and of
a player's notification area: his own group (core.ws_guard.user_group), whatever
tournament the notification is about. The message only says "changed"; the page
fetches its parts again."""

from __future__ import annotations

import json
import logging

from core import realtime
from core.ws_guard import user_group

log = logging.getLogger(__name__)


def group(tournament_id: int) -> str:
    return f"tournament.{tournament_id}"


def tournament_changed(tournament_id: int) -> None:
    try:
        text = json.dumps({"type": "changed", "tournament": tournament_id})
        realtime.send([(group(tournament_id), text)])
    except Exception:  # a page update must never break the tournament
        log.exception("could not announce a change of tournament %s", tournament_id)


def notifications_changed(user_ids: list[int]) -> None:
    """Each of these players has a new notification: his notification areas, on every
    page he has open, fetch themselves again (``ws/notifications/``)."""
    try:
        text = json.dumps({"type": "changed"})
        realtime.send([(user_group(u), text) for u in user_ids], "user.notified")
    except Exception:  # a page update must never break the tournament
        log.exception("could not tell %d players of their notifications", len(user_ids))
