"""Reads of the clubs app: who may do what in a club, a club's page (members, events, its
leaderboard of the site's ratings), the lists the API and the admin need."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from django.db.models import Count, Q, QuerySet, Sum
from django.urls import reverse
from django.utils import timezone

from accounts.types import User, Visitor, person
from clubs import seasons
from clubs.models import (
    RIGHTS,
    Club,
    ClubEvent,
    ClubMessage,
    EventResults,
    Invitation,
    JoinRequest,
    Membership,
    Season,
    SeasonTable,
    Series,
)
from clubs.recurrence import occurrences
from ratings.models import Rating
from tournaments.models import Assignment, AssignmentSeat, Standing, Tournament

POOLS = (2, 3, 4)
PAST_SHOWN = 20
MESSAGES_SHOWN = 10


def membership_of(*, user: Visitor | None, club: Club) -> Membership | None:
    someone = person(user)
    if someone is None:
        return None
    return Membership.objects.filter(club=club, user=someone).first()


def can(*, user: Visitor | None, club: Club, right: str) -> bool:
    """Whether ``user`` holds ``right`` in ``club`` now (read from the database each time, so
    a right taken away counts from the next request on). A superuser holds every right."""
    if right not in RIGHTS:
        raise ValueError(f"unknown right {right!r}")
    someone = person(user)
    if someone is None or not someone.is_active:
        return False
    if someone.is_superuser:
        return True
    return Membership.objects.filter(club=club, user=someone, **{f"right_{right}": True}).exists()


def club_ids_where(*, user: Visitor | None, right: str) -> list[int]:
    """The clubs in which ``user`` holds ``right`` (none for a visitor)."""
    someone = person(user)
    if someone is None or not someone.is_active:
        return []
    return list(
        Membership.objects.filter(user=someone, **{f"right_{right}": True}).values_list(
            "club_id", flat=True
        )
    )


def club_ids_where_any(*, user: Visitor | None, rights: tuple[str, ...]) -> list[int]:
    """The clubs in which ``user`` holds at least one of ``rights``."""
    someone = person(user)
    if someone is None or not someone.is_active:
        return []
    condition = Q()
    for right in rights:
        condition |= Q(**{f"right_{right}": True})
    return list(
        Membership.objects.filter(condition, user=someone).values_list("club_id", flat=True)
    )


def club_by_slug(slug: str) -> Club | None:
    return Club.objects.filter(slug=slug.lower()).first()


def club_list(*, include_archived: bool = False) -> QuerySet[Club]:
    clubs = Club.objects.annotate(n_members=Count("memberships"))
    if not include_archived:
        clubs = clubs.filter(archived_at__isnull=True)
    return clubs.order_by("-n_members", "name")


def members(*, club: Club) -> list[Membership]:
    return list(
        Membership.objects.filter(club=club).select_related("user").order_by("joined_at", "pk")
    )


def events(*, club: Club) -> tuple[list[ClubEvent], list[ClubEvent]]:
    """The club's upcoming (and running) events, soonest first, and its last past ones. Drafts
    are not shown: they are not announced yet."""
    rows = ClubEvent.objects.filter(club=club).select_related("tournament")
    done = (Tournament.Status.FINISHED, Tournament.Status.CANCELLED)
    upcoming = list(
        rows.exclude(tournament__status__in=(*done, Tournament.Status.DRAFT)).order_by(
            "tournament__starts_at", "pk"
        )
    )
    past = list(
        rows.filter(tournament__status__in=done).order_by("-tournament__starts_at", "-pk")[
            :PAST_SHOWN
        ]
    )
    return upcoming, past


@dataclass(frozen=True, slots=True)
class LeaderRow:
    rank: int
    username: str
    name: str
    rating: float
    games: int
    provisional: bool


def leaderboard(*, club: Club, players: int, limit: int = 50) -> list[LeaderRow]:
    """The site's ratings of the club's members in one pool, best first: the skill rating, not
    a season table."""
    ratings = (
        Rating.objects.filter(players=players, competitor__user__club_memberships__club=club)
        .select_related("competitor__user")
        .order_by("-rating", "pk")[:limit]
    )
    rows = []
    for i, r in enumerate(ratings, start=1):
        user = r.competitor.user
        assert user is not None  # a member's competitor is a person, never a bot
        rows.append(
            LeaderRow(
                rank=i,
                username=user.username,
                name=user.get_display_name(),
                rating=r.rating,
                games=r.games,
                provisional=r.provisional,
            )
        )
    return rows


def club_page(*, club: Club, viewer: Visitor | None) -> dict[str, Any]:
    """Everything the club's page shows the viewer."""
    upcoming, past = events(club=club)
    mine = membership_of(user=viewer, club=club)
    someone = person(viewer)
    return {
        "club": club,
        "membership": mine,
        "members": members(club=club),
        "upcoming": upcoming,
        "past": past,
        "boards": {n: leaderboard(club=club, players=n) for n in POOLS},
        "requested": someone is not None
        and JoinRequest.objects.filter(
            club=club, user=someone, status=JoinRequest.Status.PENDING
        ).exists(),
        "rights": {
            r: bool(someone is not None and someone.is_active and someone.is_superuser)
            or (mine is not None and mine.has_right(r))
            for r in RIGHTS
        },
        "seasons": list(Season.objects.filter(club=club)),
        "club_messages": messages_for(club=club, viewer=viewer)[:MESSAGES_SHOWN],
    }


def may_read_messages(*, club: Club, viewer: Visitor | None) -> bool:
    """A club's messages are its members' (and a superuser's): nobody else reads them."""
    someone = person(viewer)
    if someone is None or not someone.is_active:
        return False
    return someone.is_superuser or Membership.objects.filter(club=club, user=someone).exists()


def messages_for(*, club: Club, viewer: Visitor | None) -> QuerySet[ClubMessage]:
    """The club's messages, newest first, for a reader who may read them (none else)."""
    if not may_read_messages(club=club, viewer=viewer):
        return ClubMessage.objects.none()
    return ClubMessage.objects.filter(club=club).select_related("sender")


def message_for(*, club: Club, message_id: int, viewer: Visitor | None) -> ClubMessage | None:
    return messages_for(club=club, viewer=viewer).filter(pk=message_id).first()


def moderated_tournaments(user: Visitor | None) -> QuerySet[Tournament, Any]:
    """The events whose chat ``user`` moderates as a holder of his club's moderation right
    (a subquery of their ids; none for a visitor). Read each time: a right taken away counts
    from the next request. Given to the social app through ``core.moderation`` (clubs and
    social do not import each other)."""
    someone = person(user)
    if someone is None or not someone.is_active:
        return Tournament.objects.none().values("pk")
    clubs = Membership.objects.filter(user=someone, right_moderation=True).values("club_id")
    return Tournament.objects.filter(club_event__club__in=clubs).values("pk")


def join_requests(*, club: Club) -> QuerySet[JoinRequest]:
    return JoinRequest.objects.filter(club=club, status=JoinRequest.Status.PENDING).select_related(
        "user"
    )


def invitations(*, club: Club) -> QuerySet[Invitation]:
    now = timezone.now()
    return Invitation.objects.filter(club=club, revoked_at__isnull=True, expires_at__gt=now)


def event_of(tournament: Tournament) -> ClubEvent | None:
    return ClubEvent.objects.filter(tournament=tournament).select_related("club").first()


def is_member(*, user: User, club_id: int) -> bool:
    return Membership.objects.filter(club_id=club_id, user=user).exists()


def members_with(*, club: Club, right: str) -> QuerySet[Membership]:
    return Membership.objects.filter(Q(club=club) & Q(**{f"right_{right}": True}))


def season_events(*, season: Season) -> list[ClubEvent]:
    """The club's finished events whose start falls on the season's dates (the club's zone)."""
    zone = ZoneInfo(season.club.time_zone)
    start = datetime.combine(season.starts_on, time(0), tzinfo=zone)
    end = datetime.combine(season.ends_on + timedelta(days=1), time(0), tzinfo=zone)
    return list(
        ClubEvent.objects.filter(
            club=season.club,
            tournament__status=Tournament.Status.FINISHED,
            tournament__starts_at__gte=start,
            tournament__starts_at__lt=end,
        )
        .select_related("tournament")
        .order_by("tournament__starts_at", "pk")
    )


def events_results(*, events_: list[ClubEvent]) -> dict[int, list[list[Any]]]:
    """Each event's results as a season scores them, read from its standings and tables in
    two set-based queries, whatever the scheme: three columns, ``[user ids, places,
    earned]``, one entry for every listed player — his final place (``None`` when
    disqualified or unranked) and what his tables earned him: the placement points of each
    finished table's place (as amended), or a duplicate event's matchpoints (its standings'
    game score, docs/duplicate.md)."""
    ids = [e.tournament_id for e in events_]
    duplicate = {
        e.tournament_id for e in events_ if e.tournament.format == Tournament.Format.DUPLICATE
    }
    seats = (
        AssignmentSeat.objects.filter(
            assignment__round__tournament_id__in=[i for i in ids if i not in duplicate],
            assignment__status=Assignment.Status.FINISHED,
            user__isnull=False,
        )
        .values_list("assignment__round__tournament_id", "user_id")
        .annotate(earned=Sum("points"))
    )
    earned = {(t, u): p or 0 for t, u, p in seats}
    results: dict[int, list[list[Any]]] = {i: [[], [], []] for i in ids}
    for tournament_id, user_id, rank, out, matchpoints in (
        Standing.objects.filter(tournament_id__in=ids)
        .order_by("tournament_id", "position")
        .values_list("tournament_id", "user_id", "rank", "disqualified", "game_score")
    ):
        got = matchpoints if tournament_id in duplicate else earned.get((tournament_id, user_id), 0)
        users, places, earned_ = results[tournament_id]
        users.append(user_id)
        places.append(None if out or rank is None else rank)
        earned_.append(got)
    return results


def season_key(*, season: Season, events_: list[ClubEvent]) -> list[Any]:
    """What a season's table is computed from, besides the events' results: its scoring and
    its events (a moved, added or deleted event, or a changed scoring, makes a new key)."""
    return [season.scheme, list(season.points), season.best, [e.tournament_id for e in events_]]


def season_lines(
    *, season: Season, events_: list[ClubEvent], results: dict[int, list[list[Any]]]
) -> list[list[Any]]:
    """The table's rows without names, as stored: ``[user id, rank, total, played, points,
    counted]``, ``points`` each event's points (``None`` where he did not play) and
    ``counted`` 1 for each counted one, both in the events' order."""
    lines = seasons.table(
        {t: list(zip(*columns, strict=True)) for t, columns in results.items()},
        scheme=season.scheme,  # type: ignore[arg-type]
        points=season.points,
        best=season.best,
    )
    ids = [e.tournament_id for e in events_]
    return [
        [
            line.user_id,
            line.rank,
            line.total,
            line.played,
            [line.points.get(i) for i in ids],
            [int(i in line.counted) for i in ids],
        ]
        for line in lines
    ]


def season_results_stored(*, events_: list[ClubEvent]) -> dict[int, list[list[Any]]]:
    """The events' stored results (clubs.models.EventResults), by tournament id; an event
    without them is missing."""
    return dict(
        EventResults.objects.filter(event__in=events_).values_list("event__tournament_id", "rows")
    )


def season_compute(*, season: Season, events_: list[ClubEvent]) -> list[list[Any]]:
    """The table computed afresh from each event's stored results (read from its standings
    where none is stored yet)."""
    results = season_results_stored(events_=events_)
    results.update(events_results(events_=[e for e in events_ if e.tournament_id not in results]))
    return season_lines(season=season, events_=events_, results=results)


def season_rows(*, season: Season) -> dict[str, Any]:
    """The season's table: its events (each with a link) and, per player, rank, total and
    each event's points (the counted ones marked). An open season's table is the one stored
    when its events' standings were last written (clubs.series.season_table_store), served
    while its key — the scoring and the events — still holds, else computed here from the
    events' results; a closed season's table as it stood."""
    if season.final is not None:
        return dict(season.final)
    events_ = season_events(season=season)
    stored = SeasonTable.objects.filter(
        season=season, key=season_key(season=season, events_=events_)
    ).values_list("rows", flat=True)
    lines = next(iter(stored), None)
    if lines is None:
        lines = season_compute(season=season, events_=events_)
    zone = ZoneInfo(season.club.time_zone)
    ids = [e.tournament_id for e in events_]
    names = {
        pk: (username, display or username)
        for pk, username, display in User.objects.filter(
            pk__in=[line[0] for line in lines]
        ).values_list("pk", "username", "display_name")
    }
    return {
        "scheme": season.scheme,
        "events": [
            {
                "tournament_id": e.tournament_id,
                "name": e.tournament.name,
                "url": reverse("tournaments:detail", args=[e.tournament_id]),
                "starts_at": e.tournament.starts_at.isoformat(),
                "day": e.tournament.starts_at.astimezone(zone).date().isoformat(),
                "duplicate": e.tournament.format == Tournament.Format.DUPLICATE,
            }
            for e in events_
        ],
        "rows": [
            {
                "rank": rank,
                "username": names[user_id][0],
                "name": names[user_id][1],
                "total": total,
                "played": played,
                "points": [
                    {"tournament_id": i, "points": p, "counted": bool(c)}
                    for i, p, c in zip(ids, points, counted, strict=True)
                ],
            }
            for user_id, rank, total, played, points, counted in lines
        ],
    }


def season_csv(*, season: Season) -> str:
    table = season_rows(season=season)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["rank", "player", "total", *(e["name"] for e in table["events"])])
    for row in table["rows"]:
        writer.writerow(
            [
                row["rank"],
                row["username"],
                row["total"],
                *(
                    "" if p["points"] is None else f"{p['points']}{'' if p['counted'] else '*'}"
                    for p in row["points"]
                ),
            ]
        )
    return out.getvalue()


def series_next_day(*, series: Series, now: datetime | None = None) -> date | None:
    """The local date of the series' next evening not skipped (``None`` once it is stopped)."""
    if series.stopped_at is not None:
        return None
    moment = now or timezone.now()
    found = occurrences(
        weekday=series.weekday,
        at=series.start_time,
        zone=series.time_zone,
        start=moment,
        end=moment + timedelta(days=7 * 60),
        skipped=series.skipped,
    )
    return found[0][0] if found else None


@dataclass(frozen=True)
class Evening:
    """One coming date of a recurring evening: its local date, its start (UTC), whether it
    is skipped, and its event once created (a tournament, changed on its own admin page)."""

    day: date
    starts_at: datetime
    skipped: bool
    event: ClubEvent | None


def series_coming(*, series: Series, now: datetime | None = None, weeks: int = 8) -> list[Evening]:
    """The series' dates of the next ``weeks`` weeks, skipped ones included (none once it is
    stopped), each with its event if already created."""
    if series.stopped_at is not None:
        return []
    moment = now or timezone.now()
    found = occurrences(
        weekday=series.weekday,
        at=series.start_time,
        zone=series.time_zone,
        start=moment,
        end=moment + timedelta(days=7 * weeks),
    )
    events_ = {
        e.occurrence: e
        for e in ClubEvent.objects.filter(
            series=series, occurrence__in=[day for day, _at in found]
        ).select_related("tournament")
    }
    skipped = set(series.skipped)
    return [Evening(day, at, day.isoformat() in skipped, events_.get(day)) for day, at in found]
