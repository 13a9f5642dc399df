"""Signal receivers: a finished rated match enqueues its rating task after the commit."""

from __future__ import annotations

from typing import Any

from django.db import transaction


def on_match_finished(sender: Any, *, result_id: int, **kwargs: Any) -> None:
    from games.models import MatchResult
    from ratings.tasks import apply_result

    rated = MatchResult.objects.filter(pk=result_id, table__rated=True).exists()
    if rated:
        transaction.on_commit(lambda: apply_result.delay(result_id))
