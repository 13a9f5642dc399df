"""Single results: a finished match's result applied to its players' ratings,
exactly once."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from django.db import IntegrityError, transaction

from ratings.lines import seat_lines
from ratings.models import (
    RatingChange,
)
from ratings.services.common import Applied, pool_lock, result_correction, result_eligible
from ratings.services.duplicate import duplicate_round_rate
from ratings.services.recompute import ratings_recompute_locked
from ratings.services.step import entries_of, result_apply_locked

if TYPE_CHECKING:
    pass

log = logging.getLogger(__name__)


def rating_apply_result(*, result_id: int) -> Applied:
    """Apply one finished match's result to the ratings of its players, exactly once.
    Safe to run twice, or on two workers at once: the second run changes nothing."""
    from games.models import MatchResult

    result = MatchResult.objects.select_related("table", "correction").get(pk=result_id)
    correction = result_correction(result)
    if not result_eligible(result, correction):
        return Applied("skipped", result_id)
    if result.table.dealing_source:
        # A duplicate round's table: rated with its round, once the round is over and
        # its tournament has given the board comparison (rating_apply_duplicate_round).
        dup = result.duplicate_rounds.first()
        return Applied("waiting", result_id) if dup is None else duplicate_round_rate(dup)
    if RatingChange.objects.filter(result=result).exists():
        return Applied("already", result_id)  # a cheap early exit; the constraint decides
    lines = seat_lines(result.record)  # the replay runs outside the transaction
    players = result.table.players
    try:
        with transaction.atomic():
            pool_lock(players)
            entries = entries_of(result, correction, lines)
            if len(entries) < 2:
                return Applied("skipped", result_id)
            later = RatingChange.objects.filter(
                players=players,
                competitor__in=[e.competitor for e in entries],
                played_at__gt=result.finished_at,
            ).exists()
            if later:
                done = ratings_recompute_locked(since=result.finished_at, pools=[players])
                log.info("result %s arrived out of order: %s", result_id, done.summary())
                return Applied("recomputed", result_id, done.results)
            count = result_apply_locked(result, entries)
    except IntegrityError:
        if RatingChange.objects.filter(result=result).exists():
            return Applied("already", result_id)
        raise
    return Applied("applied", result_id, count)
