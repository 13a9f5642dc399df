"""Corrections: a result annulled, restored or its placements amended, then its pool
recomputed from that match on."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from django.db import transaction

from accounts.types import User
from ratings.models import (
    ResultCorrection,
)
from ratings.services.common import Recomputed, pool_lock
from ratings.services.recompute import ratings_recompute_locked

if TYPE_CHECKING:
    from games.models import MatchResult


def result_correct(
    *,
    result: MatchResult,
    annulled: bool | None = None,
    placements: Sequence[int] | None = None,
    reason: str = "",
    by: User | None = None,
) -> Recomputed:
    """Annul (or restore) a result, or amend its placements, then recompute its pool from
    that match on. Bad placements raise ``ValueError`` and change nothing."""
    n = result.table.players
    if placements is not None:
        places = [int(p) for p in placements]
        if len(places) != n or any(not 1 <= p <= n for p in places) or 1 not in places:
            raise ValueError(
                f"placements must give a place 1..{n} to each of the {n} seats, one of them 1"
            )
    with transaction.atomic():
        pool_lock(n)
        correction, _ = ResultCorrection.objects.get_or_create(result=result)
        if annulled is not None:
            correction.annulled = annulled
        if placements is not None:
            correction.placements = list(placements)
        if reason:
            correction.reason = reason
        correction.by = by
        correction.save()
        return ratings_recompute_locked(since=result.finished_at, pools=[n])
