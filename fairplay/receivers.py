"""A finished rated match is screened by a Celery task after the commit."""

from __future__ import annotations

from typing import Any

from django.db import transaction


def on_match_finished(sender: Any, *, result_id: int, **kwargs: Any) -> None:
    from fairplay.tasks import screen_match
    from games.models import MatchResult

    if MatchResult.objects.filter(pk=result_id, table__rated=True).exists():
        transaction.on_commit(lambda: screen_match.delay(result_id))
