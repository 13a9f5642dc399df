"""What the rating services share: the constants, what a service reports, the
competitors, the pool's lock and whether a result counts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from django.db import connection
from django.db.models import Q

from ratings import elo
from ratings.models import (
    Competitor,
    ResultCorrection,
)

if TYPE_CHECKING:
    from games.models import MatchResult


CONFIG = elo.DEFAULT
ADVISORY_KEY = 0x7A71_0000  # + players: one lock per pool


@dataclass(frozen=True, slots=True)
class Applied:
    """What :func:`rating_apply_result` did: ``status`` is ``applied``, ``already``
    (processed before; nothing changed), ``skipped`` (not rated, annulled, or fewer than
    two competitors), ``recomputed`` (it arrived out of time order) or ``waiting`` (a
    duplicate round's table, rated with its round once the round is over)."""

    status: str
    result_id: int
    changes: int = 0


@dataclass(slots=True)
class Recomputed:
    """What a recompute changed: results replayed, and per (competitor, players) the
    rating before and after, for every rating that moved."""

    results: int = 0
    moved: dict[tuple[int, int], tuple[float, float]] = field(default_factory=dict)
    removed: int = 0

    def summary(self) -> str:
        return f"{self.results} results replayed, {len(self.moved)} ratings changed"


def competitors_for_seats(
    seats: Sequence[tuple[int | None, str]],
) -> dict[tuple[int | None, str], Competitor]:
    """The competitor of each (user id, bot level) — a user's or a bot level's — created
    on first use in one insert (race-safe: a concurrent creation is absorbed by the unique
    constraints)."""
    keys = {
        (user_id, "" if user_id is not None else (level or "basic")) for user_id, level in seats
    }

    def fetch() -> dict[tuple[int | None, str], Competitor]:
        users = [u for u, _ in keys if u is not None]
        levels = [lv for u, lv in keys if u is None]
        found = Competitor.objects.filter(
            Q(user_id__in=users) | Q(user__isnull=True, bot_level__in=levels)
        )
        return {(c.user_id, c.bot_level): c for c in found}

    have = fetch()
    missing = keys - have.keys()
    if missing:
        Competitor.objects.bulk_create(
            [Competitor(user_id=u, bot_level=lv) for u, lv in sorted(missing, key=str)],
            ignore_conflicts=True,
        )
        have = fetch()
    return {(u, lv): have[(u, "" if u is not None else (lv or "basic"))] for u, lv in seats}


def pool_lock(players: int) -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [ADVISORY_KEY + players])


def result_correction(result: MatchResult) -> ResultCorrection | None:
    try:
        return result.correction
    except ResultCorrection.DoesNotExist:
        return None


def result_eligible(result: MatchResult, correction: ResultCorrection | None) -> bool:
    return bool(result.table.rated) and not (correction is not None and correction.annulled)
