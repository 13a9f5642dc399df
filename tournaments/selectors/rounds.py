"""Entrants, standings and rounds with their tables."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from tournaments import live, pairing
from tournaments.models import Assignment, Registration, Round, Standing, Tournament
from tournaments.selectors.common import R
from tournaments.selectors.lists import bot_level


def entrants(t: Tournament) -> list[Registration]:
    """In seeding order: the organiser's seeds first, then by rating."""
    from django.db.models import F

    return list(
        t.registrations.select_related("user").order_by(
            F("seed").asc(nulls_last=True), "-rating", "registered_at", "pk"
        )
    )


def standings(*, tournament: Tournament) -> list[Standing]:
    """In order; a disqualified player's row carries the organiser's reason (``reason``)."""
    t = tournament
    rows = list(t.standings.select_related("user").order_by("position"))
    reasons = disqualification_reasons(t) if any(s.disqualified for s in rows) else {}
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
    t = tournament
    duplicate = t.format == Tournament.Format.DUPLICATE
    secret: set[int] = set()
    if duplicate:
        from tournaments.models import DuplicateDealing

        revealed = set(
            DuplicateDealing.objects.filter(tournament=t)
            .exclude(revealed_at=None)
            .values_list("round_number", flat=True)
        )
        secret = {n for n in t.round_set.values_list("number", flat=True) if n not in revealed}
    me = user.pk if getattr(user, "is_authenticated", False) else None
    out: list[RoundView] = []
    qs: QuerySet[Round] = t.round_set.order_by("-number" if newest_first else "number")
    assignments = (
        Assignment.objects.filter(round__tournament=t)
        .select_related("table")
        .prefetch_related("seats__user")
        .order_by("number")
    )
    by_round: dict[int, list[Assignment]] = {}
    for a in assignments:
        by_round.setdefault(a.round_id, []).append(a)
    bot = _("Bot (%(level)s)") % {"level": bot_level(t)}
    for rnd in qs:
        view = RoundView(
            rnd.number, rnd.status, rnd.get_status_display(), rnd.starts_at, rnd.ends_at
        )
        for a in by_round.get(rnd.pk, []):
            finished = a.status == Assignment.Status.FINISHED
            hidden = rnd.number in secret and a.table_id is not None
            closed = hidden and not any(me is not None and s.user_id == me for s in a.seats.all())
            view.tables.append(
                TableView(
                    number=a.number,
                    status=a.status,
                    status_label=a.get_status_display(),
                    table_id=a.table_id,
                    url=live.table_url(a.table_id) if a.table_id and not closed else None,
                    replay_url=live.replay_url(a.table_id)
                    if a.table_id and finished and not hidden
                    else None,
                    closed=closed,
                    stopped_early=a.stopped_early,
                    amended=(a.amend_reason or _("no reason given")) if a.amended else None,
                    seats=[
                        SeatView(
                            s.number,
                            s.user.get_display_name() if s.user else bot,
                            s.user_id,
                            s.place,
                            None if duplicate else s.points,
                            s.score,
                        )
                        for s in sorted(a.seats.all(), key=lambda s: s.number)
                    ],
                )
            )
        out.append(view)
    return out


def round_sheet(t: Tournament, number: int) -> RoundView | None:
    """One round with its tables and seats (the printable round sheet)."""
    for view in rounds(tournament=t, newest_first=False):
        if view.number == number:
            return view
    return None


def disqualification_reasons(t: Tournament) -> dict[int, str]:
    return dict(t.registrations.filter(status=R.DISQUALIFIED).values_list("user_id", "reason"))


def players_in_play(t: Tournament, everyone: bool = False) -> QuerySet[Registration]:
    """The field of the next round: the checked-in entrants (``everyone``: all but the
    no-shows)."""
    regs = t.registrations.select_related("user")
    if everyone:
        return regs.exclude(status__in=(R.NO_SHOW,))
    return regs.filter(status=R.CHECKED_IN)


def rounds_played(t: Tournament, *, before: int) -> list[list[pairing.TableSeats]]:
    """The tables of rounds 1 .. ``before`` − 1, each round's by position (0 = first
    dealer), in table order: what the round-robin movement re-plans from."""
    rounds: list[list[pairing.TableSeats]] = [[] for _ in range(before - 1)]
    assignments = (
        Assignment.objects.filter(round__tournament=t, round__number__lt=before)
        .select_related("table", "round")
        .prefetch_related("seats")
        .order_by("round__number", "number", "pk")
    )
    for a in assignments:
        rounds[a.round.number - 1].append(table_by_position(a))
    return rounds


def table_by_position(a: Assignment) -> pairing.TableSeats:
    """An assigned table's players by position (0 = first dealer; before its table starts,
    seat 0), bots as None."""
    seats = sorted(a.seats.all(), key=lambda s: s.number)
    k = len(seats)
    dealer = a.table.first_dealer if a.table is not None and a.table.first_dealer is not None else 0
    by_position: list[int | None] = [None] * k
    for s in seats:
        by_position[(s.number - dealer) % k] = s.user_id
    return tuple(by_position)
