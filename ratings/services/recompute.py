"""Recomputation: every rated result of the pools replayed in time order from the
ratings as they stood before."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.db import connection, transaction
from django.db.models import Count, Max

from ratings.lines import SeatLine
from ratings.models import (
    PLAYER_COUNTS,
    WON,
    DuplicateRound,
    Rating,
    RatingChange,
)
from ratings.services.common import CONFIG, Recomputed, pool_lock, result_correction
from ratings.services.step import (
    entries_of,
    line_dict,
    rated_round_apply_locked,
    rated_round_of,
    result_apply_locked,
)

if TYPE_CHECKING:
    from games.models import MatchResult


def ratings_recompute(
    *, since: datetime | None = None, players: Iterable[int] = PLAYER_COUNTS
) -> Recomputed:
    """Replay every rated, not annulled result that finished at or after ``since`` (all of
    them when ``None``) in (finished_at, id) order, from the ratings as they stood just
    before. Deterministic: the same results give the same ratings whatever the history of
    processing. Returns what changed."""
    pools = sorted(set(players))
    with transaction.atomic():
        for n in pools:
            pool_lock(n)
        return ratings_recompute_locked(since=since, pools=pools)


def ratings_recompute_locked(*, since: datetime | None, pools: Sequence[int]) -> Recomputed:
    from games.models import MatchResult

    report = Recomputed()
    before = {
        (r.competitor_id, r.players): r.rating for r in Rating.objects.filter(players__in=pools)
    }
    doomed = RatingChange.objects.filter(players__in=pools)
    if since is not None:
        doomed = doomed.filter(played_at__gte=since)
    # Keep the replayed lines: the record of a result does not change.
    kept_lines: dict[tuple[int, int], SeatLine] = {}
    for row in doomed:
        kept_lines[(row.result_id, row.seat)] = SeatLine(
            **{k: getattr(row, k) for k in line_dict(SeatLine())}
        )
    cached_results = {result_id for result_id, _ in kept_lines}
    report.removed, _ = doomed.delete()
    _ratings_rebuild(pools)

    results = MatchResult.objects.select_related("table", "correction").filter(
        table__rated=True, table__players__in=pools
    )
    if since is not None:
        results = results.filter(finished_at__gte=since)
    results = results.exclude(correction__annulled=True).filter(table__dealing_source__isnull=True)
    rounds = DuplicateRound.objects.filter(players__in=pools).prefetch_related("results")
    if since is not None:
        rounds = rounds.filter(played_at__gte=since)
    # One time line: the results in (finished_at, id) order, each duplicate round at its
    # end (its last table's finish, then its last result's id).
    units: list[tuple[datetime, int, MatchResult | DuplicateRound]] = [
        (r.finished_at, r.pk, r) for r in results
    ]
    units += [(d.played_at, max((r.pk for r in d.results.all()), default=0), d) for d in rounds]
    units.sort(key=lambda u: (u[0], u[1]))

    def lines_of(result: MatchResult) -> list[SeatLine] | None:
        if result.pk in cached_results and not _multi_seat_bots(result):
            return _lines_from_cache(result, kept_lines)
        return None

    for _, _, unit in units:
        if isinstance(unit, DuplicateRound):
            round_ = rated_round_of(unit, {r.pk: lines_of(r) for r in unit.results.all()})
            if rated_round_apply_locked(unit, round_):
                report.results += len(round_.results)
            continue
        entries = entries_of(unit, result_correction(unit), lines_of(unit))
        if len(entries) < 2:
            continue
        result_apply_locked(unit, entries)
        report.results += 1
    after = {
        (r.competitor_id, r.players): r.rating for r in Rating.objects.filter(players__in=pools)
    }
    for key in before.keys() | after.keys():
        old = before.get(key, CONFIG.start)
        new = after.get(key, CONFIG.start)
        if abs(old - new) > 1e-9:
            report.moved[key] = (old, new)
    return report


def _multi_seat_bots(result: MatchResult) -> bool:
    levels = [s.bot_level for s in result.table.seats.all() if s.user_id is None]
    return len(levels) != len(set(levels))


def _lines_from_cache(
    result: MatchResult, kept: dict[tuple[int, int], SeatLine]
) -> list[SeatLine] | None:
    lines = [kept.get((result.pk, seat)) for seat in range(result.table.players)]
    if any(line is None for line in lines):
        return None
    return [line for line in lines if line is not None]


def _ratings_rebuild(pools: Sequence[int]) -> None:
    """Set every rating of the pools to what its remaining changes say (the start for a
    competitor with none left)."""
    latest = {}
    for row in (
        RatingChange.objects.filter(players__in=pools)
        .order_by("competitor_id", "players", "-played_at", "-result_id")
        .distinct("competitor_id", "players")
        .values("competitor_id", "players", "after")
        if connection.vendor == "postgresql"
        else _latest_portable(pools)
    ):
        latest[(row["competitor_id"], row["players"])] = row["after"]
    counts = {
        (row["competitor_id"], row["players"]): row
        for row in RatingChange.objects.filter(players__in=pools)
        .values("competitor_id", "players")
        .annotate(games=Count("id"), wins=Count("id", filter=WON), last=Max("played_at"))
    }
    ratings = list(Rating.objects.filter(players__in=pools))
    for r in ratings:
        key = (r.competitor_id, r.players)
        stats = counts.get(key)
        r.rating = latest.get(key, CONFIG.start)
        r.games = stats["games"] if stats else 0
        r.wins = stats["wins"] if stats else 0
        r.last_played = stats["last"] if stats else None
        r.provisional = CONFIG.is_provisional(r.games)
    Rating.objects.bulk_update(
        ratings, ["rating", "games", "wins", "last_played", "provisional"], batch_size=2000
    )


def _latest_portable(pools: Sequence[int]) -> list[dict[str, Any]]:
    seen: set[tuple[int, int]] = set()
    out: list[dict[str, Any]] = []
    for row in (
        RatingChange.objects.filter(players__in=pools)
        .order_by("competitor_id", "players", "-played_at", "-result_id")
        .values("competitor_id", "players", "after")
    ):
        key = (row["competitor_id"], row["players"])
        if key not in seen:
            seen.add(key)
            out.append(dict(row))
    return out
