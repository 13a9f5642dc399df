"""A player's own view of a tournament: his entry and what he may do, his place, his
live table and the panel beside a tournament's table."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.types import Visitor, person
from tournaments import live
from tournaments.models import Assignment, DuplicateDealing, Registration, Tournament
from tournaments.selectors.common import ENTERED


@dataclass
class UserState:
    registration: Registration | None
    can_register: bool
    can_withdraw: bool
    can_check_in: bool


def user_state(
    tournament: Tournament, user: Visitor | None, now: datetime | None = None
) -> UserState:
    now = now or timezone.now()
    reg = None
    who = person(user)
    if who is not None:
        reg = tournament.registrations.filter(user=who).first()
    entered = reg is not None and reg.status in ENTERED
    open_now = (tournament.status in Tournament.ENTERABLE and now < tournament.closes_at) or (
        tournament.status == Tournament.Status.RUNNING
        and tournament.format == Tournament.Format.ARENA
        and now < tournament.arena_ends_at
    )
    return UserState(
        registration=reg,
        can_register=open_now
        and not entered
        and (reg is None or reg.status == Registration.Status.WITHDRAWN),
        can_withdraw=entered
        and tournament.status in (*Tournament.ENTERABLE, Tournament.Status.RUNNING),
        can_check_in=reg is not None
        and reg.status == Registration.Status.REGISTERED
        and tournament.status == Tournament.Status.CHECK_IN,
    )


def my_place(tournament: Tournament, user: Visitor | None) -> tuple[int, int] | None:
    """The user's rank in the standings and how many are ranked, once it has started."""
    who = person(user)
    if who is None or tournament.status not in (
        Tournament.Status.RUNNING,
        Tournament.Status.FINISHED,
    ):
        return None
    ranks = dict(tournament.standings.filter(rank__isnull=False).values_list("user_id", "rank"))
    rank = ranks.get(who.pk)
    return (rank, len(ranks)) if rank is not None else None


def my_table(tournament: Tournament, user: Visitor | None) -> Assignment | None:
    """The user's live table in this tournament now, if any."""
    who = person(user)
    if who is None:
        return None
    return (
        Assignment.objects.filter(
            round__tournament=tournament,
            seats__user=who,
            status__in=(Assignment.Status.PLAYING, Assignment.Status.STOPPING),
        )
        .exclude(table=None)
        .first()
    )


@dataclass
class TablePanel:
    """What the table page of a tournament's table says about the tournament: which
    event and round, why the table ended, where the player placed, and where he goes
    next (his next table once seated there, else the tournament page)."""

    tournament: Tournament
    round_number: int
    table_number: int
    status: str
    ended: str  # why the table ended ("" while it plays)
    place: int | None
    points: int | None
    seated: bool  # the viewer sits at this table
    next_url: str
    next_is_table: bool
    rank: tuple[int, int] | None
    disqualified: str | None = None  # the organiser's reason, when the viewer is out
    amended: str | None = None  # the organiser's reason, when this table's places were amended
    duplicate: bool = False  # a duplicate event: the boards count, not the place
    boards_url: str | None = None  # a duplicate round's boards, once the round is over


def table_panel(*, table_id: int, user: Visitor | None) -> TablePanel | None:
    """The panel of a tournament's table for ``user`` (anyone may watch), or None when
    the table is not a tournament's."""
    assignment = (
        Assignment.objects.select_related("round__tournament", "table")
        .filter(table_id=table_id)
        .first()
    )
    if assignment is None:
        return None
    tournament = assignment.round.tournament
    who = person(user)
    seat = assignment.seats.filter(user=who).first() if who is not None else None
    ended = ""
    if assignment.status == Assignment.Status.STOPPING:
        ended = _("The round's time is up: this match ends when its deal in play is complete.")
    elif assignment.status == Assignment.Status.FINISHED and not live.result_ending(table_id):
        # A match cut short says how it ended above the board; one won, here.
        ended = _("The match is over.")
    nxt = my_table(tournament, user) if seat is not None else None
    next_is_table = nxt is not None and nxt.table_id is not None and nxt.table_id != table_id
    next_url = (
        live.table_url(nxt.table_id)
        if next_is_table and nxt is not None and nxt.table_id is not None
        else _tournament_url(tournament)
    )
    return TablePanel(
        tournament=tournament,
        round_number=assignment.round.number,
        table_number=assignment.number,
        status=assignment.status,
        ended=ended,
        place=seat.place
        if seat is not None and assignment.status == Assignment.Status.FINISHED
        else None,
        points=seat.points
        if seat is not None and assignment.status == Assignment.Status.FINISHED
        else None,
        seated=seat is not None,
        next_url=next_url,
        next_is_table=next_is_table,
        rank=my_place(tournament, user) if seat is not None else None,
        disqualified=_disqualified(tournament, who) if seat is not None else None,
        amended=(assignment.amend_reason or _("no reason given")) if assignment.amended else None,
        duplicate=tournament.format == Tournament.Format.DUPLICATE,
        boards_url=_boards_url(tournament, assignment.round.number),
    )


def _boards_url(tournament: Tournament, number: int) -> str | None:
    """A duplicate round's boards page, once the round is over and its seed revealed."""
    from django.urls import reverse

    if tournament.format != Tournament.Format.DUPLICATE:
        return None
    if not DuplicateDealing.objects.filter(
        tournament=tournament, round_number=number, revealed_at__isnull=False
    ).exists():
        return None
    return reverse("tournaments:round_boards", args=[tournament.pk, number])


def _disqualified(tournament: Tournament, who: Any) -> str | None:
    reg = tournament.registrations.filter(user=who, status=Registration.Status.DISQUALIFIED).first()
    return None if reg is None else (reg.reason or _("no reason given"))


def _tournament_url(tournament: Tournament) -> str:
    from django.urls import reverse

    return reverse("tournaments:detail", args=[tournament.pk])
