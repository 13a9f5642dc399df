"""The standings, recomputed from the recorded results, never added to."""

from __future__ import annotations

import logging
from collections import defaultdict
from typing import Any

from django.db.models import Q
from django.utils import timezone

from tournaments import duplicate, scoring, signals
from tournaments.models import (
    Assignment,
    AssignmentSeat,
    DuplicateDealing,
    Registration,
    Round,
    Standing,
    Tournament,
)
from tournaments.selectors.duplicate import round_board_results

log = logging.getLogger(__name__)


def assignments_playing(*, tournament: Tournament, user_id: int) -> list[Assignment]:
    return list(
        Assignment.objects.filter(
            round__tournament=tournament,
            status__in=(Assignment.Status.PLAYING, Assignment.Status.STOPPING),
            seats__user_id=user_id,
        )
    )


def standings_compute(*, tournament: Tournament) -> list[scoring.Row]:
    tables: dict[int, list[scoring.SeatResult]] = defaultdict(list)
    round_of: dict[int, int] = {}
    seats = AssignmentSeat.objects.filter(
        assignment__round__tournament=tournament, assignment__status=Assignment.Status.FINISHED
    ).values_list("assignment_id", "assignment__round__number", "user_id", "place", "score")
    for assignment, number, user, place, score in seats:
        tables[assignment].append(scoring.SeatResult(user, place or 0, score or 0))
        round_of[assignment] = number
    regs = tournament.registrations.exclude(status__in=(Registration.Status.NO_SHOW,)).exclude(
        Q(status=Registration.Status.WITHDRAWN)
        & Q(left_at__isnull=False)
        & Q(left_at__lt=tournament.started_at or timezone.now())
    )
    players = [r.user_id for r in regs]
    disqualified = {r.user_id for r in regs if r.status == Registration.Status.DISQUALIFIED}
    return scoring.standings(
        (scoring.TableResult(round_of[assignment], tuple(s)) for assignment, s in tables.items()),
        points=tournament.placement_points,
        players=players,
        disqualified=disqualified,
        knockout=tournament.format == Tournament.Format.KNOCKOUT,
    )


def standings_compute_duplicate(*, tournament: Tournament) -> list[duplicate.DuplicateRow]:
    """A duplicate event's standings: the board percentages of every round the event
    has revealed (docs/duplicate.md); a round in play counts once it is over."""
    revealed = set(
        DuplicateDealing.objects.filter(
            tournament=tournament, revealed_at__isnull=False
        ).values_list("round_number", flat=True)
    )
    results: list[duplicate.BoardResult] = []
    for round_ in Round.objects.filter(tournament=tournament, number__in=revealed).order_by(
        "number"
    ):
        results += round_board_results(round_)[0]
    return duplicate.standings(duplicate.board_scores(results, bots=tournament.duplicate_bots))


def standings_write(*, tournament: Tournament) -> None:
    """Recompute the standings from every recorded table (results recorded meanwhile
    are counted by the next step)."""
    counted = list(
        Assignment.objects.filter(
            round__tournament=tournament, status=Assignment.Status.FINISHED, in_standings=False
        ).values_list("pk", flat=True)
    )
    rows: list[dict[str, Any]]
    if tournament.format == Tournament.Format.DUPLICATE:
        # points: the sum of board percentages, rounded; matches: the boards played;
        # game score: the matchpoints (docs/duplicate.md).
        rows = [
            {"user_id": r.entrant, "rank": r.rank, "points": round(r.total),
             "matches": r.boards, "game_score": r.matchpoints}
            for r in standings_compute_duplicate(tournament=tournament)
        ]  # fmt: skip
    else:
        rows = [
            {"user_id": r.player, "rank": r.rank, "points": r.points, "matches": r.matches,
             "wins": r.wins, "opponents_points": r.opponents_points,
             "game_score": r.game_score, "head_to_head": r.head_to_head, "stage": r.stage,
             "disqualified": r.disqualified}
            for r in standings_compute(tournament=tournament)
        ]  # fmt: skip
    Standing.objects.filter(tournament=tournament).delete()
    Standing.objects.bulk_create(
        Standing(tournament=tournament, position=i, **row) for i, row in enumerate(rows, start=1)
    )
    Assignment.objects.filter(pk__in=counted).update(in_standings=True)
    signals.standings_written.send(sender=Tournament, tournament_id=tournament.pk)
