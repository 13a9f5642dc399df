"""Seating a round of a Swiss or knockout event: who plays on (the field), seeds, the
Swiss order and the history the pairing weighs, and the round's assignments."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F

from tournaments import duplicate, pairing
from tournaments.models import (
    Assignment,
    AssignmentSeat,
    Registration,
    Round,
    Tournament,
)
from tournaments.selectors.rounds import players_in_play, rounds_played, table_by_position
from tournaments.services import duplicate as dealing_services


def round_next_field(*, tournament: Tournament, last: Round) -> list[Registration] | None:
    """The players of the next round, or None when the event is over."""
    in_play = list(players_in_play(tournament))
    if tournament.format in (Tournament.Format.SWISS, Tournament.Format.DUPLICATE):
        if last.number >= (tournament.rounds or 0) or len(in_play) < 2:
            return None
        return in_play
    # Knockout: the qualifiers of the last round who are still in.
    if last.assignments.count() <= 1:
        return None
    by_user = {r.user_id: r for r in in_play}
    qualifiers = _knockout_qualifiers(tournament, last)
    field = [by_user[u] for u in qualifiers if u in by_user]
    return field if len(field) >= 2 else None


def _knockout_qualifiers(tournament: Tournament, round_: Round) -> list[int]:
    """Next round's seeds: from each table its top humans (ties by seed), table winners
    first, each group by seed."""
    seed_of = _seeds(tournament)
    triples: list[tuple[int, int, int]] = []
    for assignment in round_.assignments.prefetch_related("seats"):
        seats = sorted(assignment.seats.all(), key=lambda s: s.number)
        table = tuple(s.user_id for s in seats)
        finish = sorted(
            seats, key=lambda s: (s.place or 99, seed_of.get(s.user_id or 0, 10**6), s.number)
        )
        through = pairing.knockout_qualifiers(
            [s.user_id for s in finish], table, tournament.advance
        )
        place = {s.user_id: s.place or 99 for s in seats}
        triples += [(place[u], seed_of.get(u, 10**6), u) for u in through]
    return pairing.knockout_next_seeds(triples)


def _seeds(tournament: Tournament) -> dict[int, int]:
    """Each player's seed (0 = best): the organiser's manual seeds first, then by
    rating at registration."""
    order = tournament.registrations.order_by(
        F("seed").asc(nulls_last=True), "-rating", "registered_at", "pk"
    ).values_list("user_id", flat=True)
    return {u: i for i, u in enumerate(order)}


def seed_key(r: Registration) -> tuple[Any, ...]:
    """The seeding order: manual seeds (1 = top) first, then by rating."""
    return (r.seed is None, r.seed or 0, -r.rating, r.registered_at, r.pk)


def round_seat(
    *,
    tournament: Tournament,
    number: int,
    now: datetime,
    field: Sequence[Registration] | None = None,
) -> Round:
    """Seat round ``number`` (Swiss, knockout or duplicate): the assignments, no live
    tables yet."""
    k = tournament.players_per_table
    if field is None:
        field = list(players_in_play(tournament))
    history = field_history(tournament)
    movement = (
        tournament.format == Tournament.Format.DUPLICATE
        and tournament.movement == Tournament.Movement.ROUND_ROBIN
    )
    if tournament.format == Tournament.Format.KNOCKOUT:
        if number == 1:
            field = sorted(field, key=seed_key)
        tables = pairing.knockout_seating(
            [r.user_id for r in field], seats=k, history=history, seed=tournament.seed + number
        )
    elif movement:
        # The round-robin movement: the plan made from round 1's field, re-planned from
        # the rounds played when the field changes (docs/duplicate.md, "Movement"); its
        # tables come by position.
        tables = pairing.movement_round(
            [r.user_id for r in field],
            rounds_played(tournament, before=number),
            rounds=tournament.rounds or number,
            seats=k,
            seed=tournament.seed,
        )
    else:
        entrants = _swiss_order(tournament, field, first=number == 1)
        tables = pairing.swiss_seating(entrants, history, seats=k, seed=tournament.seed + number)
    pairing.check_round(tables, [r.user_id for r in field], k)
    if tournament.format == Tournament.Format.DUPLICATE:
        # Every entrant holds each position in turn (docs/duplicate.md: the movement
        # plans the positions itself); the round's dealing was committed before this
        # seating, and the next round's is now (none after the last round: there is no
        # round to deal; an organiser who adds rounds later gets the next one committed
        # when it is seated).
        if not movement:
            held = {
                p: history.seat_counts(p, k) for table in tables for p in table if p is not None
            }
            tables = [duplicate.rotate_seats(table, held) for table in tables]
        dealing_services.duplicate_commit(tournament=tournament, number=number, now=now)
        if number < (tournament.rounds or 0):
            dealing_services.duplicate_commit(tournament=tournament, number=number + 1, now=now)
    try:
        with transaction.atomic():
            round_ = Round.objects.create(
                tournament=tournament,
                number=number,
                starts_at=now + timedelta(seconds=tournament.break_seconds),
            )
    except IntegrityError:
        return Round.objects.get(tournament=tournament, number=number)
    for i, table in enumerate(tables, start=1):
        assignment = Assignment.objects.create(round=round_, number=i)
        AssignmentSeat.objects.bulk_create(
            AssignmentSeat(assignment=assignment, number=seat, user_id=user)
            for seat, user in enumerate(table)
        )
    return round_


def _swiss_order(
    tournament: Tournament, field: Sequence[Registration], *, first: bool
) -> list[pairing.Entrant]:
    if first:
        ordered = sorted(field, key=seed_key)
        return [pairing.Entrant(r.user_id, 0) for r in ordered]
    rows = {s.user_id: s for s in tournament.standings.all()}

    def key(r: Registration) -> tuple[float, ...]:
        s = rows.get(r.user_id)
        return (s.position if s else 10**9, -r.rating, r.pk)

    ordered = sorted(field, key=key)
    return [
        pairing.Entrant(r.user_id, rows[r.user_id].points if r.user_id in rows else 0)
        for r in ordered
    ]


def field_history(tournament: Tournament) -> pairing.History:
    """Every table of the event so far, in seat positions (0 = first dealer), oldest
    first."""
    history = pairing.History()
    assignments = (
        Assignment.objects.filter(round__tournament=tournament)
        .exclude(table=None)
        .select_related("table")
        .prefetch_related("seats")
        .order_by("round__number", "created_at", "pk")
    )
    for assignment in assignments:
        history.add(table_by_position(assignment))
    return history
