"""The organiser's evening: announcements, notifications, overlapping entries, the round
sheet, and the standings and results as rows and CSV."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _

from accounts.types import User, Visitor, person
from tournaments.models import Tournament
from tournaments.selectors.common import ENTERED
from tournaments.selectors.rounds import disqualification_reasons, rounds, standings


def announcements(tournament: Tournament, limit: int = 10) -> list[Any]:
    return list(tournament.announcements.all()[:limit])


def notification_text(note: Any) -> str:
    """A notification's line, in the reader's language, from its kind and parameters (an
    announcement is the organiser's own words; an older row of the site's may keep
    the words it was sent with in ``text``)."""
    from tournaments.models import Notification

    name = note.tournament.name if note.tournament is not None else ""
    if note.kind == Notification.Kind.CHECK_IN:
        return _("%(name)s: check-in is open. Check in to play.") % {"name": name}
    if note.kind == Notification.Kind.TABLE_READY:
        return _("%(name)s: your table is ready.") % {"name": name}
    if note.kind == Notification.Kind.CANCELLED:
        return _("%(name)s is cancelled: %(reason)s") % {"name": name, "reason": note.text}
    if note.kind == Notification.Kind.DISQUALIFIED:
        return _("%(name)s: the organiser disqualified you: %(reason)s") % {
            "name": name,
            "reason": note.text or _("no reason given"),
        }
    if note.kind == Notification.Kind.AMENDED:
        return _("%(name)s: the organiser amended the places at your table: %(reason)s") % {
            "name": name,
            "reason": note.text or _("no reason given"),
        }
    params = note.params or {}
    if note.kind == Notification.Kind.GROUP_MESSAGE:
        return _("A message from %(sender)s: %(subject)s") % {
            "sender": params.get("sender", ""),
            "subject": params.get("subject", note.text),
        }
    if note.kind == Notification.Kind.FAIR_PLAY:
        return _(
            "A reminder from the moderators: play every rated game on your own, without "
            "help from programs or other players. Read the fair-play rules."
        )
    if note.kind == Notification.Kind.STARTS_SOON:
        return f"{name}: " + _("Starts in %(n)s minutes.") % {"n": params.get("minutes", "?")}
    if note.kind == Notification.Kind.CHECK_IN_SOON:
        return f"{name}: " + _("Check-in closes in %(n)s minutes: check in to play.") % {
            "n": params.get("minutes", "?")
        }
    return f"{name}: {note.text}" if name else str(note.text)


@dataclass
class NotificationArea:
    unread: int
    items: list[tuple[Any, str]]  # (notification, its text)


def notification_area(*, user: Visitor | None, limit: int = 8) -> NotificationArea | None:
    """The header's notification area of a signed-in player."""
    who = person(user)
    if who is None:
        return None
    from tournaments.models import Notification

    mine = Notification.objects.filter(user=who)
    items = list(mine.select_related("tournament")[:limit])
    return NotificationArea(
        unread=mine.filter(read_at__isnull=True).count(),
        items=[(n, notification_text(n)) for n in items],
    )


def window(tournament: Tournament) -> tuple[datetime, datetime]:
    """When an event occupies its players: from its start (check-in included) to its end,
    or, when nobody can tell the end, a guess (rounds or three, of the round limit or an
    hour each)."""
    from datetime import timedelta

    start = tournament.check_in_opens_at
    end = tournament.ends_at
    if end is None:
        rounds = tournament.rounds or 3
        end = tournament.starts_at + rounds * timedelta(
            seconds=tournament.break_seconds, minutes=tournament.round_minutes or 60
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


STANDINGS_COLUMNS = (
    "rank", "player", "points", "matches", "wins", "opponents_points", "game_score",
    "head_to_head", "round_reached", "disqualified", "reason",
)  # fmt: skip

RESULTS_COLUMNS = (
    "round", "table", "table_id", "status", "finished_by", "seat", "player", "place", "score",
    "points", "replay_url", "amended",
)  # fmt: skip


def standings_rows(*, tournament: Tournament) -> list[dict[str, Any]]:
    """The standings as plain rows (CSV and JSON exports)."""
    reasons = disqualification_reasons(tournament)
    # A duplicate event's standing is its boards (docs/duplicate.md): points = the sum of
    # the board percentages, matches = the boards, game_score = the matchpoints; wins,
    # opponents' points, head to head and the round reached mean nothing there.
    duplicate = tournament.format == Tournament.Format.DUPLICATE
    return [
        {
            "rank": s.rank,
            "player": s.user.get_display_name(),
            "points": s.points,
            "matches": s.matches,
            "wins": None if duplicate else s.wins,
            "opponents_points": None if duplicate else s.opponents_points,
            "game_score": s.game_score,
            "head_to_head": None if duplicate else s.head_to_head,
            "round_reached": None if duplicate else s.stage,
            "disqualified": s.disqualified,
            "reason": reasons.get(s.user_id, "") if s.disqualified else "",
        }
        for s in standings(tournament=tournament)
    ]


def result_rows(*, tournament: Tournament) -> list[dict[str, Any]]:
    """Every seat of every table of the event with its result (CSV and JSON exports)."""
    from games.models import MatchResult

    finished_by = dict(
        MatchResult.objects.filter(
            table__tournament_assignment__round__tournament=tournament
        ).values_list("table_id", "finished_by")
    )
    duplicate = tournament.format == Tournament.Format.DUPLICATE
    out = []
    for view in rounds(tournament=tournament, newest_first=False):
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
                        # No placement points in a duplicate event: it goes by boards.
                        "points": seat.points if seat.user_id and not duplicate else None,
                        "replay_url": table.replay_url or "",
                        "amended": table.amended,
                    }
                )
    return out


# A cell a spreadsheet would read as a formula (OWASP, "CSV Injection"): =, +, -, @, and
# tab and carriage return, which some spreadsheets skip before looking for one.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    """A value as it may go into an exported CSV: text that a spreadsheet would run as a
    formula gets a leading apostrophe, which spreadsheets show as text and do not run
    (names are the players' own: ``=HYPERLINK(…)`` is a display name like any other).
    Numbers stay numbers (a negative score is no formula)."""
    if value is None:
        return ""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def csv_text(columns: tuple[str, ...], rows: list[dict[str, Any]]) -> str:
    """Every CSV the service exports (the pages' and the admin's): cells through
    :func:`csv_cell`."""
    import csv
    import io

    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(columns))
    writer.writeheader()
    for row in rows:
        writer.writerow({k: csv_cell(row.get(k)) for k in columns})
    return buffer.getvalue()
