"""Reads for the tournament pages and API: lists, a tournament's rules in plain words,
entrants, standings, rounds with their tables."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import Count, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from accounts.types import User, Visitor, person
from games.pages.options import BOT_LEVEL_WORDS, differences, preset_label
from tournaments import live
from tournaments.models import Assignment, Registration, Round, Standing, Tournament

S = Tournament.Status
R = Registration.Status

ENTERED = (R.REGISTERED, R.CHECKED_IN)

MESSAGES = {
    "registered": gettext_lazy("You are registered."),
    "withdrawn": gettext_lazy("You have withdrawn."),
    "checked_in": gettext_lazy("You are checked in. Good luck!"),
}


def _visible() -> QuerySet[Tournament]:
    return Tournament.objects.exclude(status=S.DRAFT).annotate(
        entrants=Count("registrations", filter=Q(registrations__status__in=ENTERED))
    )


def tournament_lists(*, finished_limit: int = 30) -> dict[str, list[Tournament]]:
    """Upcoming (soonest first), running, finished (latest first) and cancelled."""
    qs = _visible()
    return {
        "upcoming": list(
            qs.filter(status__in=(S.SCHEDULED, *Tournament.ENTERABLE)).order_by("starts_at", "pk")
        ),
        "running": list(qs.filter(status=S.RUNNING).order_by("started_at", "pk")),
        "finished": list(
            qs.filter(status=S.FINISHED).order_by("-finished_at", "-pk")[:finished_limit]
        ),
        "cancelled": list(
            qs.filter(status=S.CANCELLED).order_by("-starts_at", "-pk")[:finished_limit]
        ),
    }


def tournament_get(*, tournament_id: int, user: Visitor | None = None) -> Tournament | None:
    """A tournament anyone may see (a draft only for staff)."""
    qs = Tournament.objects.annotate(
        entrants=Count("registrations", filter=Q(registrations__status__in=ENTERED))
    )
    t = qs.filter(pk=tournament_id).first()
    if t is None or (t.status == S.DRAFT and not getattr(user, "is_staff", False)):
        return None
    return t


def rules_in_words(t: Tournament) -> list[str]:
    """The event's rules as a new player would want them told."""
    k = t.players_per_table
    lines: list[str] = []
    if t.format == Tournament.Format.SWISS:
        lines.append(
            ngettext(
                "Swiss: %(n)s round. Each round seats players with similar results together, "
                "and nobody meets the same opponents again if it can be avoided.",
                "Swiss: %(n)s rounds. Each round seats players with similar results together, "
                "and nobody meets the same opponents again if it can be avoided.",
                t.rounds or 0,
            )
            % {"n": t.rounds}
        )
    elif t.format == Tournament.Format.ARENA:
        lines.append(
            _(
                "Arena: for %(minutes)s minutes, whenever you are free you are seated at the next "
                "table with players of similar rating. Play as many matches as you like; join late "
                "or leave early."
            )
            % {"minutes": t.duration_minutes}
        )
    else:
        lines.append(
            ngettext(
                "Knockout: the winner of each table goes through to the next round, until the "
                "final table.",
                "Knockout: the top %(n)s of each table go through to the next round, until the "
                "final table.",
                t.advance,
            )
            % {"n": t.advance}
        )
    lines.append(
        _("Tables of %(k)s, rules “%(preset)s”%(target)s; %(seconds)s seconds for each action.")
        % {
            "k": k,
            "preset": preset_label(t.preset),
            "target": _(", matches to %(target)s points") % {"target": t.match_target}
            if t.match_target
            else "",
            "seconds": t.move_seconds,
        }
    )
    changes = differences(t.preset, t.options or {})
    if changes:
        lines.append(_("Rule changes: %(changes)s.") % {"changes": "; ".join(changes)})
    points = ", ".join(str(p) for p in t.placement_points)
    lines.append(
        _(
            "Each match scores placement points by your place at the table: %(points)s. "
            "Ties in the standings go to the higher sum of your opponents' points, then the "
            "higher total game score, then head-to-head results."
        )
        % {"points": points}
    )
    if t.round_minutes:
        lines.append(
            _(
                "A round lasts at most %(minutes)s minutes: then unfinished matches finish the "
                "deal in play and are ranked by their scores."
            )
            % {"minutes": t.round_minutes}
        )
    lines.append(
        _(
            "Empty seats are played by %(level)s bots. Bots are never listed in the standings, "
            "so they take no places."
        )
        % {"level": _bot_level(t)}
    )
    lines.append(_("Rated: the matches count for your rating.") if t.rated else _("Not rated."))
    if t.check_in_minutes:
        lines.append(
            _(
                "Check in during the %(minutes)s minutes before the start; players who do not "
                "are left out."
            )
            % {"minutes": t.check_in_minutes}
        )
    conditions = []
    if t.min_rating:
        conditions.append(_("a rating of at least %(n)s") % {"n": t.min_rating})
    if t.min_rated_matches:
        conditions.append(_("at least %(n)s rated matches") % {"n": t.min_rated_matches})
    if t.max_players:
        conditions.append(_("at most %(n)s players") % {"n": t.max_players})
    if conditions:
        lines.append(_("Entry: %(conditions)s.") % {"conditions": "; ".join(conditions)})
    lines.append(
        _(
            "If you lose your connection, the clock plays for you and then a bot, until you "
            "come back."
        )
    )
    return lines


def _bot_level(t: Tournament) -> str:
    return str(BOT_LEVEL_WORDS.get(t.bot_level, t.bot_level))


def status_label(t: Tournament, now: datetime | None = None) -> str:
    """The tournament's state as a player needs it: registration closed early (or at
    its time) is said, although the tournament waits for its start in that state."""
    if t.status == S.REGISTRATION and (now or timezone.now()) >= t.closes_at:
        return _("Registration closed")
    return str(t.get_status_display())


@dataclass
class UserState:
    registration: Registration | None
    can_register: bool
    can_withdraw: bool
    can_check_in: bool


def user_state(t: Tournament, user: Visitor | None, now: datetime | None = None) -> UserState:
    now = now or timezone.now()
    reg = None
    who = person(user)
    if who is not None:
        reg = t.registrations.filter(user=who).first()
    entered = reg is not None and reg.status in ENTERED
    open_now = (t.status in Tournament.ENTERABLE and now < t.closes_at) or (
        t.status == S.RUNNING and t.format == Tournament.Format.ARENA and now < t.arena_ends_at
    )
    return UserState(
        registration=reg,
        can_register=open_now and not entered and (reg is None or reg.status == R.WITHDRAWN),
        can_withdraw=entered and t.status in (*Tournament.ENTERABLE, S.RUNNING),
        can_check_in=reg is not None and reg.status == R.REGISTERED and t.status == S.CHECK_IN,
    )


def my_place(t: Tournament, user: Visitor | None) -> tuple[int, int] | None:
    """The user's rank in the standings and how many are ranked, once it has started."""
    who = person(user)
    if who is None or t.status not in (S.RUNNING, S.FINISHED):
        return None
    ranks = dict(t.standings.filter(rank__isnull=False).values_list("user_id", "rank"))
    rank = ranks.get(who.pk)
    return (rank, len(ranks)) if rank is not None else None


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


@dataclass
class RoundView:
    number: int
    status: str
    status_label: str
    starts_at: datetime
    ends_at: datetime | None
    tables: list[TableView] = field(default_factory=list)


def rounds(*, tournament: Tournament, newest_first: bool = True) -> list[RoundView]:
    t = tournament
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
    bot = _("Bot (%(level)s)") % {"level": _bot_level(t)}
    for rnd in qs:
        view = RoundView(
            rnd.number, rnd.status, rnd.get_status_display(), rnd.starts_at, rnd.ends_at
        )
        for a in by_round.get(rnd.pk, []):
            finished = a.status == Assignment.Status.FINISHED
            view.tables.append(
                TableView(
                    number=a.number,
                    status=a.status,
                    status_label=a.get_status_display(),
                    table_id=a.table_id,
                    url=live.table_url(a.table_id) if a.table_id else None,
                    replay_url=live.replay_url(a.table_id) if a.table_id and finished else None,
                    stopped_early=a.stopped_early,
                    seats=[
                        SeatView(
                            s.number,
                            s.user.get_display_name() if s.user else bot,
                            s.user_id,
                            s.place,
                            s.points,
                            s.score,
                        )
                        for s in sorted(a.seats.all(), key=lambda s: s.number)
                    ],
                )
            )
        out.append(view)
    return out


def my_table(t: Tournament, user: Visitor | None) -> Assignment | None:
    """The user's live table in this tournament now, if any."""
    who = person(user)
    if who is None:
        return None
    return (
        Assignment.objects.filter(
            round__tournament=t,
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


def table_panel(*, table_id: int, user: Visitor | None) -> TablePanel | None:
    """The panel of a tournament's table for ``user`` (anyone may watch), or None when
    the table is not a tournament's."""
    a = (
        Assignment.objects.select_related("round__tournament", "table")
        .filter(table_id=table_id)
        .first()
    )
    if a is None:
        return None
    t = a.round.tournament
    who = person(user)
    seat = a.seats.filter(user=who).first() if who is not None else None
    ended = ""
    if a.status == Assignment.Status.STOPPING:
        ended = _("The round's time is up: this match ends when its deal in play is complete.")
    elif a.status == Assignment.Status.FINISHED and not live.result_ending(table_id):
        # A match cut short says how it ended above the board; one won, here.
        ended = _("The match is over.")
    nxt = my_table(t, user) if seat is not None else None
    next_is_table = nxt is not None and nxt.table_id is not None and nxt.table_id != table_id
    next_url = (
        live.table_url(nxt.table_id)
        if next_is_table and nxt is not None and nxt.table_id is not None
        else _tournament_url(t)
    )
    return TablePanel(
        tournament=t,
        round_number=a.round.number,
        table_number=a.number,
        status=a.status,
        ended=ended,
        place=seat.place if seat is not None and a.status == Assignment.Status.FINISHED else None,
        points=seat.points if seat is not None and a.status == Assignment.Status.FINISHED else None,
        seated=seat is not None,
        next_url=next_url,
        next_is_table=next_is_table,
        rank=my_place(t, user) if seat is not None else None,
    )


def _tournament_url(t: Tournament) -> str:
    from django.urls import reverse

    return reverse("tournaments:detail", args=[t.pk])


# -- the organiser's evening: announcements, notifications, sheets, exports, conflicts --


def announcements(t: Tournament, limit: int = 10) -> list[Any]:
    return list(t.announcements.all()[:limit])


def disqualification_reasons(t: Tournament) -> dict[int, str]:
    return dict(t.registrations.filter(status=R.DISQUALIFIED).values_list("user_id", "reason"))


def notification_text(note: Any) -> str:
    """A notification's line, in the reader's language (an announcement is the
    organiser's own words)."""
    from tournaments.models import Notification

    name = note.tournament.name if note.tournament is not None else ""
    if note.kind == Notification.Kind.CHECK_IN:
        return _("%(name)s: check-in is open. Check in to play.") % {"name": name}
    if note.kind == Notification.Kind.TABLE_READY:
        return _("%(name)s: your table is ready.") % {"name": name}
    return f"{name}: {note.text}" if name else str(note.text)


@dataclass
class NotificationArea:
    unread: int
    items: list[tuple[Any, str]]  # (notification, its text)
    tournament_ids: list[int]  # whose sockets tell the area to refresh


def notification_area(*, user: Visitor | None, limit: int = 8) -> NotificationArea | None:
    """The header's notification area of a signed-in player."""
    who = person(user)
    if who is None:
        return None
    from tournaments.models import Notification

    mine = Notification.objects.filter(user=who)
    items = list(mine.select_related("tournament")[:limit])
    active = Tournament.objects.filter(
        registrations__user=who,
        registrations__status__in=ENTERED,
        status__in=Tournament.ACTIVE,
    ).values_list("pk", flat=True)
    return NotificationArea(
        unread=mine.filter(read_at__isnull=True).count(),
        items=[(n, notification_text(n)) for n in items],
        tournament_ids=sorted(set(active)),
    )


def window(t: Tournament) -> tuple[datetime, datetime]:
    """When an event occupies its players: from its start (check-in included) to its end,
    or, when nobody can tell the end, a guess (rounds or three, of the round limit or an
    hour each)."""
    from datetime import timedelta

    start = t.check_in_opens_at
    end = t.ends_at
    if end is None:
        rounds = t.rounds or 3
        end = t.starts_at + rounds * timedelta(
            seconds=t.break_seconds, minutes=t.round_minutes or 60
        )
    return start, end


def overlapping(*, tournament: Tournament, user: User) -> list[Tournament]:
    """The user's other active entries whose times overlap this tournament's."""
    start, end = window(tournament)
    others = Tournament.objects.filter(
        registrations__user=user,
        registrations__status__in=ENTERED,
        status__in=Tournament.ACTIVE,
    ).exclude(pk=tournament.pk)
    out = []
    for other in others:
        o_start, o_end = window(other)
        if o_start < end and start < o_end:
            out.append(other)
    return out


def overlap_warning(*, tournament: Tournament, user: User) -> str:
    """A sentence naming the overlapping entries ("" for none)."""
    names = [o.name for o in overlapping(tournament=tournament, user=user)]
    if not names:
        return ""
    return _("%(player)s is also entered in %(names)s at overlapping times.") % {
        "player": user.get_display_name(),
        "names": ", ".join(names),
    }


def round_sheet(t: Tournament, number: int) -> RoundView | None:
    """One round with its tables and seats (the printable round sheet)."""
    for view in rounds(tournament=t, newest_first=False):
        if view.number == number:
            return view
    return None


STANDINGS_COLUMNS = (
    "rank", "player", "points", "matches", "wins", "opponents_points", "game_score",
    "head_to_head", "round_reached", "disqualified", "reason",
)  # fmt: skip

RESULTS_COLUMNS = (
    "round", "table", "table_id", "status", "finished_by", "seat", "player", "place", "score",
    "points", "replay_url",
)  # fmt: skip


def standings_rows(*, tournament: Tournament) -> list[dict[str, Any]]:
    """The standings as plain rows (CSV and JSON exports)."""
    t = tournament
    reasons = disqualification_reasons(t)
    return [
        {
            "rank": s.rank,
            "player": s.user.get_display_name(),
            "points": s.points,
            "matches": s.matches,
            "wins": s.wins,
            "opponents_points": s.opponents_points,
            "game_score": s.game_score,
            "head_to_head": s.head_to_head,
            "round_reached": s.stage,
            "disqualified": s.disqualified,
            "reason": reasons.get(s.user_id, "") if s.disqualified else "",
        }
        for s in standings(tournament=t)
    ]


def result_rows(*, tournament: Tournament) -> list[dict[str, Any]]:
    """Every seat of every table of the event with its result (CSV and JSON exports)."""
    t = tournament
    from games.models import MatchResult

    finished_by = dict(
        MatchResult.objects.filter(table__tournament_assignment__round__tournament=t).values_list(
            "table_id", "finished_by"
        )
    )
    out = []
    for view in rounds(tournament=t, newest_first=False):
        for table in view.tables:
            for seat in table.seats:
                out.append(
                    {
                        "round": view.number,
                        "table": table.number,
                        "table_id": table.table_id,
                        "status": table.status,
                        "finished_by": finished_by.get(table.table_id, "")
                        if table.table_id
                        else "",
                        "seat": seat.number,
                        "player": seat.name,
                        "place": seat.place,
                        "score": seat.score,
                        "points": seat.points if seat.user_id else None,
                        "replay_url": table.replay_url or "",
                    }
                )
    return out


def csv_text(columns: tuple[str, ...], rows: list[dict[str, Any]]) -> str:
    import csv
    import io

    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(columns))
    writer.writeheader()
    for row in rows:
        writer.writerow({k: "" if row.get(k) is None else row.get(k) for k in columns})
    return buffer.getvalue()
