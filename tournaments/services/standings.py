"""The standings, recomputed from the recorded results, never added to."""

from __future__ import annotations

import logging
from collections import defaultdict
from typing import Any

from django.db.models import Q
from django.utils import timezone

from tournaments import duplicate, scoring
from tournaments.models import (
    Assignment,
    AssignmentSeat,
    DuplicateDealing,
    Round,
    Standing,
    Tournament,
)
from tournaments.selectors.duplicate import round_board_results
from tournaments.services.common import R

log = logging.getLogger(__name__)


def playing_assignments_of(t: Tournament, user_id: int) -> list[Assignment]:
    return list(
        Assignment.objects.filter(
            round__tournament=t,
            status__in=(Assignment.Status.PLAYING, Assignment.Status.STOPPING),
            seats__user_id=user_id,
        )
    )


def standings_compute(t: Tournament) -> list[scoring.Row]:
    tables: dict[int, list[scoring.SeatResult]] = defaultdict(list)
    round_of: dict[int, int] = {}
    seats = AssignmentSeat.objects.filter(
        assignment__round__tournament=t, assignment__status=Assignment.Status.FINISHED
    ).values_list("assignment_id", "assignment__round__number", "user_id", "place", "score")
    for a, number, user, place, score in seats:
        tables[a].append(scoring.SeatResult(user, place or 0, score or 0))
        round_of[a] = number
    regs = t.registrations.exclude(status__in=(R.NO_SHOW,)).exclude(
        Q(status=R.WITHDRAWN)
        & Q(left_at__isnull=False)
        & Q(left_at__lt=t.started_at or timezone.now())
    )
    players = [r.user_id for r in regs]
    disqualified = {r.user_id for r in regs if r.status == R.DISQUALIFIED}
    return scoring.standings(
        (scoring.TableResult(round_of[a], tuple(s)) for a, s in tables.items()),
        points=t.placement_points,
        players=players,
        disqualified=disqualified,
        knockout=t.format == Tournament.Format.KNOCKOUT,
    )


def duplicate_standings_compute(t: Tournament) -> list[duplicate.DuplicateRow]:
    """A duplicate event's standings: the board percentages of every round the event
    has revealed (docs/duplicate.md); a round in play counts once it is over."""
    revealed = set(
        DuplicateDealing.objects.filter(tournament=t, revealed_at__isnull=False).values_list(
            "round_number", flat=True
        )
    )
    results: list[duplicate.BoardResult] = []
    for rnd in Round.objects.filter(tournament=t, number__in=revealed).order_by("number"):
        results += round_board_results(rnd)[0]
    return duplicate.standings(duplicate.board_scores(results, bots=t.duplicate_bots))


def write_standings(t: Tournament) -> None:
    """Recompute the standings from every recorded table (results recorded meanwhile
    are counted by the next step)."""
    counted = list(
        Assignment.objects.filter(
            round__tournament=t, status=Assignment.Status.FINISHED, in_standings=False
        ).values_list("pk", flat=True)
    )
    rows: list[dict[str, Any]]
    if t.format == Tournament.Format.DUPLICATE:
        # points: the sum of board percentages, rounded; matches: the boards played;
        # game score: the matchpoints (docs/duplicate.md).
        rows = [
            {"user_id": r.entrant, "rank": r.rank, "points": round(r.total),
             "matches": r.boards, "game_score": r.matchpoints}
            for r in duplicate_standings_compute(t)
        ]  # fmt: skip
    else:
        rows = [
            {"user_id": r.player, "rank": r.rank, "points": r.points, "matches": r.matches,
             "wins": r.wins, "opponents_points": r.opponents_points,
             "game_score": r.game_score, "head_to_head": r.head_to_head, "stage": r.stage,
             "disqualified": r.disqualified}
            for r in standings_compute(t)
        ]  # fmt: skip
    Standing.objects.filter(tournament=t).delete()
    Standing.objects.bulk_create(
        Standing(tournament=t, position=i, **row) for i, row in enumerate(rows, start=1)
    )
    Assignment.objects.filter(pk__in=counted).update(in_standings=True)
