"""Writes of the ratings app: apply a finished match's result, recompute, correct.

Exactly once: every rating change row is unique per (competitor, result). Applying a result
inserts its rows and moves the ratings in one transaction; a second application (a retried
task, a second worker at the same moment) fails on that constraint and rolls back, so
nothing changes the second time.

Time order: within a pool (2, 3 or 4 players) results are applied serially (a PostgreSQL
advisory lock per pool; SQLite's write lock serialises everything already) and in the
order they finished. A result that arrives after a later one of the same players has been
applied triggers a recompute of the pool from its time on, so the ratings are always those
of processing every result in (finished_at, id) order.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.db import IntegrityError, connection, transaction
from django.db.models import Count, Max, Q

from accounts.types import User
from ratings import elo
from ratings.lines import SeatLine, seat_lines
from ratings.models import (
    PLAYER_COUNTS,
    WON,
    Competitor,
    DuplicateRound,
    Rating,
    RatingChange,
    ResultCorrection,
)

if TYPE_CHECKING:
    from games.models import MatchResult

log = logging.getLogger(__name__)
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


# ---------------------------------------------------------------- competitors


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


# ---------------------------------------------------------------- the core step


@dataclass(slots=True)
class _Entry:
    competitor: Competitor
    seats: list[int]
    seat_places: list[int]
    place: int
    score: float | None
    line: SeatLine


def _pool_lock(players: int) -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [ADVISORY_KEY + players])


def _placements(result: MatchResult, correction: ResultCorrection | None) -> list[int]:
    if correction is not None and correction.placements:
        return [int(p) for p in correction.placements]
    return [int(p) for p in result.placements]


def _entries(
    result: MatchResult, correction: ResultCorrection | None, lines: Sequence[SeatLine] | None
) -> list[_Entry]:
    """One entry per distinct competitor of the match. A bot level that held several
    seats is one competitor: its place is its best seat's, its line the sum of its seats'."""
    seats = list(result.table.seats.all().order_by("number"))
    places = _placements(result, correction)
    scores = list(result.final_scores)
    if lines is None:
        lines = seat_lines(result.record)
    by_competitor: dict[int, _Entry] = {}
    competitors = competitors_for_seats([(s.user_id, s.bot_level) for s in seats])
    for seat in seats:
        competitor = competitors[(seat.user_id, seat.bot_level)]
        n = seat.number
        score = None if seat.resigned else float(scores[n])
        entry = by_competitor.get(competitor.pk)
        if entry is None:
            line = SeatLine(**_line_dict(lines[n]))
            by_competitor[competitor.pk] = _Entry(
                competitor, [n], [places[n]], places[n], score, line
            )
        else:
            entry.seats.append(n)
            entry.seat_places.append(places[n])
            entry.place = min(entry.place, places[n])
            entry.line.add(lines[n])
    return list(by_competitor.values())


def _line_dict(line: SeatLine) -> dict[str, Any]:
    return {
        "deals": line.deals,
        "points": line.points,
        "contracts_made": line.contracts_made,
        "contracts_failed": line.contracts_failed,
        "bolts": line.bolts,
        "barrels": line.barrels,
        "barrel_won": line.barrel_won,
    }


def _pool_ratings(players: int, competitors: Sequence[Competitor]) -> dict[int, Rating]:
    """The competitors' ratings in the pool, locked, created at the start where missing."""
    wanted = Rating.objects.select_for_update().filter(players=players, competitor__in=competitors)
    ratings = {r.competitor_id: r for r in wanted}
    if len(ratings) < len({c.pk for c in competitors}):
        Rating.objects.bulk_create(
            [
                Rating(competitor=c, players=players, is_bot=c.is_bot, rating=CONFIG.start)
                for c in {c.pk: c for c in competitors}.values()
                if c.pk not in ratings
            ],
            ignore_conflicts=True,
        )
        ratings = {r.competitor_id: r for r in wanted.all()}
    return ratings


def _changes_write(
    moves: Sequence[tuple[MatchResult, _Entry, float]],
    ratings: dict[int, Rating],
    players: int,
    played_at: datetime,
    *,
    wins: bool = True,
) -> int:
    """Insert one change per (result, entry, delta) and move the ratings. Raises
    IntegrityError when a result was processed already (the unique constraint). A
    duplicate round (``wins=False``) counts no table's first place as a win: it is rated
    by comparing boards, not by places (``WON``)."""
    rows = []
    for result, e, delta in moves:
        r = ratings[e.competitor.pk]
        before = r.rating
        rows.append(
            RatingChange(
                competitor=e.competitor,
                result=result,
                players=players,
                played_at=played_at,
                seat=e.seats[0],
                place=e.place,
                before=before,
                after=before + delta,
                delta=delta,
                **_line_dict(e.line),
            )
        )
        r.rating = before + delta
        r.games += 1
        r.wins += wins and e.place == 1
        r.provisional = CONFIG.is_provisional(r.games)
        r.is_bot = e.competitor.is_bot
        r.last_played = max(r.last_played or played_at, played_at)
    with transaction.atomic():  # a savepoint: the duplicate insert fails alone
        RatingChange.objects.bulk_create(rows)
    moved = {e.competitor.pk for _, e, _ in moves}
    for r in ratings.values():  # three or four plain UPDATEs: cheaper than one bulk_update
        if r.competitor_id not in moved:
            continue
        Rating.objects.filter(pk=r.pk).update(
            rating=r.rating,
            games=r.games,
            wins=r.wins,
            provisional=r.provisional,
            is_bot=r.is_bot,
            last_played=r.last_played,
        )
    return len(rows)


def _apply_locked(result: MatchResult, entries: list[_Entry]) -> int:
    """Compute and write the changes of one result; the pool lock is held. Raises
    IntegrityError when the result was processed already (the unique constraint)."""
    players = result.table.players
    ratings = _pool_ratings(players, [e.competitor for e in entries])
    # Every seat is a standing (a bot level's copies each with the level's rating); a
    # competitor's change is the mean over its seats.
    standings: list[elo.Standing] = []
    owner: list[int] = []
    for i, e in enumerate(entries):
        r = ratings[e.competitor.pk]
        for place in e.seat_places:
            standings.append(elo.Standing(r.rating, r.games, place, e.score))
            owner.append(i)
    computed = elo.rate(standings, CONFIG)
    deltas: dict[int, list[float]] = defaultdict(list)
    for i, change in zip(owner, computed):
        deltas[i].append(change.delta)
    moves = [(result, e, sum(deltas[i]) / len(deltas[i])) for i, e in enumerate(entries)]
    return _changes_write(moves, ratings, players, result.finished_at)


# ---------------------------------------------------------------- duplicate rounds


@dataclass(slots=True)
class _Round:
    """A duplicate round's rated, not annulled results and who held each seat."""

    results: list[MatchResult]
    seats: dict[tuple[int, int], tuple[MatchResult, _Entry]]

    @property
    def people(self) -> list[_Entry]:
        """One entry per person of the round (bots are never rated here)."""
        found = {e.competitor.pk: e for _, e in self.seats.values() if not e.competitor.is_bot}
        return list(found.values())


def _round_of(dup: DuplicateRound, lines: dict[int, list[SeatLine] | None] | None = None) -> _Round:
    results = [
        r
        for r in dup.results.select_related("table", "correction").order_by("id")
        if _eligible(r, _correction(r))
    ]
    seats: dict[tuple[int, int], tuple[MatchResult, _Entry]] = {}
    for result in results:
        for e in _entries(result, _correction(result), (lines or {}).get(result.pk)):
            for seat in e.seats:
                seats[(result.pk, seat)] = (result, e)
    return _Round(results, seats)


def _apply_round_locked(dup: DuplicateRound, round_: _Round) -> int:
    """Rate a duplicate round by board comparison (``elo.rate_boards``); the pool lock is
    held. Every person of the round moves once, by his own table's result; a bot seat is
    compared at its level's rating (when the event compares bots) and never moves. A
    board the clock or a bot played for an absent person (a group member's fourth item)
    is left out of his rating: it stands in its group at his rating, as a bot seat
    stands, so the others' comparison with it is unchanged, and it moves nobody's rating
    on his behalf (docs/ratings.md)."""
    players = dup.players
    people = round_.people
    ratings = _pool_ratings(players, [e.competitor for e in people])
    bots = {
        r.competitor_id: r
        for r in Rating.objects.filter(
            players=players,
            competitor__in=[e.competitor for _, e in round_.seats.values() if e.competitor.is_bot],
        )
    }
    index: dict[tuple[int, ...], int] = {}
    standing: list[tuple[float, int]] = []
    groups: list[list[tuple[int, float]]] = []
    for group in dup.groups:
        members = []
        for result_id, seat, points, *rest in group:
            found = round_.seats.get((int(result_id), int(seat)))
            if found is None:
                continue  # annulled, or not rated
            competitor = found[1].competitor
            stand_in = competitor.is_bot or bool(rest and rest[0])
            key = (int(result_id), int(seat)) if stand_in else (competitor.pk,)
            if key not in index:
                r = (bots if competitor.is_bot else ratings).get(competitor.pk)
                index[key] = len(standing)
                standing.append((r.rating, r.games) if r is not None else (CONFIG.start, 0))
            members.append((index[key], float(points)))
        groups.append(members)
    changes = elo.rate_boards(standing, groups, CONFIG)
    moves = []
    for result, e in {e.competitor.pk: (res, e) for res, e in round_.seats.values()}.values():
        i = index.get((e.competitor.pk,))
        change = changes[i] if i is not None and not e.competitor.is_bot else None
        if change is not None:
            moves.append((result, e, change.delta))
    return _changes_write(moves, ratings, players, dup.played_at, wins=False)


def _round_rate(dup: DuplicateRound) -> Applied:
    first = dup.results.order_by("id").values_list("id", flat=True).first() or 0
    if RatingChange.objects.filter(result__in=dup.results.all()).exists():
        return Applied("already", first)  # a cheap early exit; the constraint decides
    # The replays run outside the transaction.
    lines: dict[int, list[SeatLine] | None] = {
        r.pk: seat_lines(r.record) for r in dup.results.all()
    }
    try:
        with transaction.atomic():
            _pool_lock(dup.players)
            round_ = _round_of(dup, lines)
            later = RatingChange.objects.filter(
                players=dup.players,
                competitor__in=[e.competitor for e in round_.people],
                played_at__gt=dup.played_at,
            ).exists()
            if later:
                done = _recompute_locked(since=dup.played_at, pools=[dup.players])
                log.info("duplicate round %s arrived out of order: %s", dup.key, done.summary())
                return Applied("recomputed", first, done.results)
            count = _apply_round_locked(dup, round_)
    except IntegrityError:
        if RatingChange.objects.filter(result__in=dup.results.all()).exists():
            return Applied("already", first)
        raise
    return Applied("applied" if count else "skipped", first, count)


def _correction(result: MatchResult) -> ResultCorrection | None:
    try:
        return result.correction
    except ResultCorrection.DoesNotExist:
        return None


def _eligible(result: MatchResult, correction: ResultCorrection | None) -> bool:
    return bool(result.table.rated) and not (correction is not None and correction.annulled)


# ---------------------------------------------------------------- public services


def rating_apply_result(*, result_id: int) -> Applied:
    """Apply one finished match's result to the ratings of its players, exactly once.
    Safe to run twice, or on two workers at once: the second run changes nothing."""
    from games.models import MatchResult

    result = MatchResult.objects.select_related("table", "correction").get(pk=result_id)
    correction = _correction(result)
    if not _eligible(result, correction):
        return Applied("skipped", result_id)
    if result.table.dealing_source:
        # A duplicate round's table: rated with its round, once the round is over and
        # its tournament has given the board comparison (rating_apply_duplicate_round).
        dup = result.duplicate_rounds.first()
        return Applied("waiting", result_id) if dup is None else _round_rate(dup)
    if RatingChange.objects.filter(result=result).exists():
        return Applied("already", result_id)  # a cheap early exit; the constraint decides
    lines = seat_lines(result.record)  # the replay runs outside the transaction
    players = result.table.players
    try:
        with transaction.atomic():
            _pool_lock(players)
            entries = _entries(result, correction, lines)
            if len(entries) < 2:
                return Applied("skipped", result_id)
            later = RatingChange.objects.filter(
                players=players,
                competitor__in=[e.competitor for e in entries],
                played_at__gt=result.finished_at,
            ).exists()
            if later:
                done = _recompute_locked(since=result.finished_at, pools=[players])
                log.info("result %s arrived out of order: %s", result_id, done.summary())
                return Applied("recomputed", result_id, done.results)
            count = _apply_locked(result, entries)
    except IntegrityError:
        if RatingChange.objects.filter(result=result).exists():
            return Applied("already", result_id)
        raise
    return Applied("applied", result_id, count)


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
    return _round_rate(DuplicateRound.objects.get(pk=round_id))


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
            _pool_lock(n)
        return _recompute_locked(since=since, pools=pools)


def _recompute_locked(*, since: datetime | None, pools: Sequence[int]) -> Recomputed:
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
            **{k: getattr(row, k) for k in _line_dict(SeatLine())}
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
            round_ = _round_of(unit, {r.pk: lines_of(r) for r in unit.results.all()})
            if _apply_round_locked(unit, round_):
                report.results += len(round_.results)
            continue
        entries = _entries(unit, _correction(unit), lines_of(unit))
        if len(entries) < 2:
            continue
        _apply_locked(unit, entries)
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
        _pool_lock(n)
        correction, _ = ResultCorrection.objects.get_or_create(result=result)
        if annulled is not None:
            correction.annulled = annulled
        if placements is not None:
            correction.placements = list(placements)
        if reason:
            correction.reason = reason
        correction.by = by
        correction.save()
        return _recompute_locked(since=result.finished_at, pools=[n])
