"""Duplicate rounds: a round that is over recorded, and rated by board comparison
exactly once (docs/ratings.md, "Duplicate events")."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

from django.db import IntegrityError, transaction

from ratings.lines import SeatLine, seat_lines
from ratings.models import (
    DuplicateRound,
    RatingChange,
)
from ratings.services.common import Applied, pool_lock
from ratings.services.recompute import ratings_recompute_locked
from ratings.services.step import rated_round_apply_locked, rated_round_of

if TYPE_CHECKING:
    pass

log = logging.getLogger(__name__)


def duplicate_round_record(
    *,
    key: str,
    players: int,
    result_ids: Sequence[int],
    groups: Sequence[Sequence[tuple[int, int, float] | tuple[int, int, float, bool]]],
) -> DuplicateRound | None:
    """Record a duplicate round that is over, for its rating by board comparison
    (docs/ratings.md, "Duplicate events"): ``key`` names the round (its commitment),
    ``result_ids`` are its tables' results, ``groups`` its board groups as (result id,
    seat, points, played for): the last is true where the clock or a bot chose for the
    absent person in that seat, a board left out of his rating. Once: a second call with
    the same key returns the first record. Only rated tables' results count; ``None``
    when there is none."""
    from games.models import MatchResult

    results = list(MatchResult.objects.filter(pk__in=result_ids, table__rated=True))
    if not results:
        return None
    with transaction.atomic():
        dup, created = DuplicateRound.objects.get_or_create(
            key=key,
            defaults={
                "players": players,
                "played_at": max(r.finished_at for r in results),
                "groups": [
                    [[int(m[0]), int(m[1]), m[2], len(m) > 3 and bool(m[3])] for m in g]
                    for g in groups
                ],
            },
        )
        if created:
            dup.results.set(results)
    return dup


def rating_apply_duplicate_round(*, round_id: int) -> Applied:
    """Rate a recorded duplicate round's tables by board comparison, exactly once (as
    :func:`rating_apply_result` rates a result)."""
    return duplicate_round_rate(DuplicateRound.objects.get(pk=round_id))


def duplicate_round_rate(dup: DuplicateRound) -> Applied:
    first = dup.results.order_by("id").values_list("id", flat=True).first() or 0
    if RatingChange.objects.filter(result__in=dup.results.all()).exists():
        return Applied("already", first)  # a cheap early exit; the constraint decides
    # The replays run outside the transaction.
    lines: dict[int, list[SeatLine] | None] = {
        r.pk: seat_lines(r.record) for r in dup.results.all()
    }
    try:
        with transaction.atomic():
            pool_lock(dup.players)
            round_ = rated_round_of(dup, lines)
            later = RatingChange.objects.filter(
                players=dup.players,
                competitor__in=[e.competitor for e in round_.people],
                played_at__gt=dup.played_at,
            ).exists()
            if later:
                done = ratings_recompute_locked(since=dup.played_at, pools=[dup.players])
                log.info("duplicate round %s arrived out of order: %s", dup.key, done.summary())
                return Applied("recomputed", first, done.results)
            count = rated_round_apply_locked(dup, round_)
    except IntegrityError:
        if RatingChange.objects.filter(result__in=dup.results.all()).exists():
            return Applied("already", first)
        raise
    return Applied("applied" if count else "skipped", first, count)
