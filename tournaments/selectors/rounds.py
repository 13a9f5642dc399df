"""Entrants, standings and rounds with their tables."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from tournaments import live, pairing
from tournaments.models import Assignment, Registration, Round, Standing, Tournament
from tournaments.selectors.lists import bot_level


def entrants(tournament: Tournament) -> list[Registration]:
    """In seeding order: the organiser's seeds first, then by rating."""
    from django.db.models import F

    return list(
        tournament.registrations.select_related("user").order_by(
            F("seed").asc(nulls_last=True), "-rating", "registered_at", "pk"
        )
    )


def standings(*, tournament: Tournament) -> list[Standing]:
    """In order; a disqualified player's row carries the organiser's reason (``reason``)."""
    rows = list(tournament.standings.select_related("user").order_by("position"))
    reasons = disqualification_reasons(tournament) if any(s.disqualified for s in rows) else {}
    for s in rows:
        s.reason = reasons.get(s.user_id, "")  # type: ignore[attr-defined]
    return rows


@dataclass
class SeatView:
    number: int
    name: str
    user_id: int | None
    place: int | None
    points: int | None
    score: int | None


@dataclass
class TableView:
    number: int
    status: str
    status_label: str
    table_id: int | None
    url: str | None
    replay_url: str | None
    stopped_early: bool
    seats: list[SeatView] = field(default_factory=list)
    amended: str | None = None  # the organiser's reason, when he amended the places
    # A duplicate round's table before the round is over: its boards are still played at
    # the other tables, so only its players may open it (no link for anyone else), and
    # nobody its replay (docs/duplicate.md). It opens when the round is over.
    closed: bool = False


@dataclass
class RoundView:
    number: int
    status: str
    status_label: str
    starts_at: datetime
    ends_at: datetime | None
    tables: list[TableView] = field(default_factory=list)


def rounds(
    *, tournament: Tournament, newest_first: bool = True, user: Any = None
) -> list[RoundView]:
    """The rounds with their tables. A duplicate round's tables are closed until the round
    is over: no replay link, and a table link only for ``user``'s own table. A duplicate
    event gives no placement points (it goes by boards): each seat's ``points`` is None."""
    duplicate = tournament.format == Tournament.Format.DUPLICATE
    secret: set[int] = set()
    if duplicate:
        from tournaments.models import DuplicateDealing

        revealed = set(
            DuplicateDealing.objects.filter(tournament=tournament)
            .exclude(revealed_at=None)
            .values_list("round_number", flat=True)
        )
        secret = {
            n for n in tournament.round_set.values_list("number", flat=True) if n not in revealed
        }
    me = user.pk if getattr(user, "is_authenticated", False) else None
    out: list[RoundView] = []
    qs: QuerySet[Round] = tournament.round_set.order_by("-number" if newest_first else "number")
    assignments = (
        Assignment.objects.filter(round__tournament=tournament)
        .select_related("table")
        .prefetch_related("seats__user")
        .order_by("number")
    )
    by_round: dict[int, list[Assignment]] = {}
    for assignment in assignments:
        by_round.setdefault(assignment.round_id, []).append(assignment)
    bot = _("Bot (%(level)s)") % {"level": bot_level(tournament)}
    for round_ in qs:
        view = RoundView(
            round_.number,
            round_.status,
            round_.get_status_display(),
            round_.starts_at,
            round_.ends_at,
        )
        for assignment in by_round.get(round_.pk, []):
            finished = assignment.status == Assignment.Status.FINISHED
            hidden = round_.number in secret and assignment.table_id is not None
            closed = hidden and not any(
                me is not None and s.user_id == me for s in assignment.seats.all()
            )
            view.tables.append(
                TableView(
                    number=assignment.number,
                    status=assignment.status,
                    status_label=assignment.get_status_display(),
                    table_id=assignment.table_id,
                    url=live.table_url(assignment.table_id)
                    if assignment.table_id and not closed
                    else None,
                    replay_url=live.replay_url(assignment.table_id)
                    if assignment.table_id and finished and not hidden
                    else None,
                    closed=closed,
                    stopped_early=assignment.stopped_early,
                    amended=(assignment.amend_reason or _("no reason given"))
                    if assignment.amended
                    else None,
                    seats=[
                        SeatView(
                            s.number,
                            s.user.get_display_name() if s.user else bot,
                            s.user_id,
                            s.place,
                            None if duplicate else s.points,
                            s.score,
                        )
                        for s in sorted(assignment.seats.all(), key=lambda s: s.number)
                    ],
                )
            )
        out.append(view)
    return out


def round_sheet(tournament: Tournament, number: int) -> RoundView | None:
    """One round with its tables and seats (the printable round sheet)."""
    for view in rounds(tournament=tournament, newest_first=False):
        if view.number == number:
            return view
    return None


def disqualification_reasons(tournament: Tournament) -> dict[int, str]:
    return dict(
        tournament.registrations.filter(status=Registration.Status.DISQUALIFIED).values_list(
            "user_id", "reason"
        )
    )


def players_in_play(tournament: Tournament, everyone: bool = False) -> QuerySet[Registration]:
    """The field of the next round: the checked-in entrants (``everyone``: all but the
    no-shows)."""
    regs = tournament.registrations.select_related("user")
    if everyone:
        return regs.exclude(status__in=(Registration.Status.NO_SHOW,))
    return regs.filter(status=Registration.Status.CHECKED_IN)


def rounds_played(tournament: Tournament, *, before: int) -> list[list[pairing.TableSeats]]:
    """The tables of rounds 1 .. ``before`` − 1, each round's by position (0 = first
    dealer), in table order: what the round-robin movement re-plans from."""
    rounds: list[list[pairing.TableSeats]] = [[] for _ in range(before - 1)]
    assignments = (
        Assignment.objects.filter(round__tournament=tournament, round__number__lt=before)
        .select_related("table", "round")
        .prefetch_related("seats")
        .order_by("round__number", "number", "pk")
    )
    for assignment in assignments:
        rounds[assignment.round.number - 1].append(table_by_position(assignment))
    return rounds


def table_by_position(assignment: Assignment) -> pairing.TableSeats:
    """An assigned table's players by position (0 = first dealer; before its table starts,
    seat 0), bots as None."""
    seats = sorted(assignment.seats.all(), key=lambda s: s.number)
    k = len(seats)
    dealer = (
        assignment.table.first_dealer
        if assignment.table is not None and assignment.table.first_dealer is not None
        else 0
    )
    by_position: list[int | None] = [None] * k
    for s in seats:
        by_position[(s.number - dealer) % k] = s.user_id
    return tuple(by_position)
