"""Signal receivers: a finished rated match enqueues its rating task after the commit;
the pages that show a finished match's places ask which were amended in the ratings'
admin (a tournament's amendment is recorded here too, with the same places)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction


def on_match_finished(sender: Any, *, result_id: int, **kwargs: Any) -> None:
    from games.models import MatchResult
    from ratings.tasks import apply_result

    rated = MatchResult.objects.filter(pk=result_id, table__rated=True).exists()
    if rated:
        transaction.on_commit(lambda: apply_result.delay(result_id))


def on_result_amendments(sender: Any, *, table_ids: Iterable[int], **kwargs: Any) -> dict[int, Any]:
    """The tables among ``table_ids`` whose places an organiser amended in the ratings'
    admin (``ResultCorrection.placements``), with his reason: the places the ratings use
    are the places every page shows."""
    from games.placing import Amendment
    from ratings.models import ResultCorrection

    corrections = ResultCorrection.objects.filter(
        result__table_id__in=list(table_ids), placements__isnull=False
    ).values_list("result__table_id", "placements", "reason")
    return {
        table_id: Amendment(places=tuple(int(p) for p in places or ()), reason=reason)
        for table_id, places, reason in corrections
    }
