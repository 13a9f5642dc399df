"""The core step under the pool's lock: a result's entries and rating changes written
once, and a duplicate round rated by board comparison (docs/ratings.md)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.db import transaction

from ratings import elo
from ratings.lines import SeatLine, seat_lines
from ratings.models import (
    Competitor,
    DuplicateRound,
    Rating,
    RatingChange,
    ResultCorrection,
)
from ratings.services.common import (
    CONFIG,
    competitors_for_seats,
    result_correction,
    result_eligible,
)

if TYPE_CHECKING:
    from games.models import MatchResult


@dataclass(slots=True)
class Entry:
    competitor: Competitor
    seats: list[int]
    seat_places: list[int]
    place: int
    score: float | None
    line: SeatLine


def _placements(result: MatchResult, correction: ResultCorrection | None) -> list[int]:
    if correction is not None and correction.placements:
        return [int(p) for p in correction.placements]
    return [int(p) for p in result.placements]


def entries_of(
    result: MatchResult, correction: ResultCorrection | None, lines: Sequence[SeatLine] | None
) -> list[Entry]:
    """One entry per distinct competitor of the match. A bot level that held several
    seats is one competitor: its place is its best seat's, its line the sum of its seats'."""
    seats = list(result.table.seats.all().order_by("number"))
    places = _placements(result, correction)
    scores = list(result.final_scores)
    if lines is None:
        lines = seat_lines(result.record)
    by_competitor: dict[int, Entry] = {}
    competitors = competitors_for_seats([(s.user_id, s.bot_level) for s in seats])
    for seat in seats:
        competitor = competitors[(seat.user_id, seat.bot_level)]
        n = seat.number
        score = None if seat.resigned else float(scores[n])
        entry = by_competitor.get(competitor.pk)
        if entry is None:
            line = SeatLine(**line_dict(lines[n]))
            by_competitor[competitor.pk] = Entry(
                competitor, [n], [places[n]], places[n], score, line
            )
        else:
            entry.seats.append(n)
            entry.seat_places.append(places[n])
            entry.place = min(entry.place, places[n])
            entry.line.add(lines[n])
    return list(by_competitor.values())


def line_dict(line: SeatLine) -> dict[str, Any]:
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
    moves: Sequence[tuple[MatchResult, Entry, float]],
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
                **line_dict(e.line),
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


def result_apply_locked(result: MatchResult, entries: list[Entry]) -> int:
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


@dataclass(slots=True)
class RatedRound:
    """A duplicate round's rated, not annulled results and who held each seat."""

    results: list[MatchResult]
    seats: dict[tuple[int, int], tuple[MatchResult, Entry]]

    @property
    def people(self) -> list[Entry]:
        """One entry per person of the round (bots are never rated here)."""
        found = {e.competitor.pk: e for _, e in self.seats.values() if not e.competitor.is_bot}
        return list(found.values())


def rated_round_of(
    dup: DuplicateRound, lines: dict[int, list[SeatLine] | None] | None = None
) -> RatedRound:
    results = [
        r
        for r in dup.results.select_related("table", "correction").order_by("id")
        if result_eligible(r, result_correction(r))
    ]
    seats: dict[tuple[int, int], tuple[MatchResult, Entry]] = {}
    for result in results:
        for e in entries_of(result, result_correction(result), (lines or {}).get(result.pk)):
            for seat in e.seats:
                seats[(result.pk, seat)] = (result, e)
    return RatedRound(results, seats)


def rated_round_apply_locked(dup: DuplicateRound, round_: RatedRound) -> int:
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
