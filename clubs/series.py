"""Writes of the clubs app's recurring evenings and seasons: start a series, skip a date,
change what follows, stop it, create the coming occurrences (the beat task, clubs/tasks.py);
start and close a season, store its table. Each is atomic and checks the events right
before it changes anything (the stores, run by tasks, change nothing a person sees but the
table); an occurrence is created exactly once (one event per series and date, a unique
constraint)."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.timezones import validate_time_zone
from accounts.types import User
from clubs import errors, selectors
from clubs.models import Club, ClubEvent, EventResults, Season, SeasonTable, Series
from clubs.recurrence import occurrences
from tournaments import services as tournament_services
from tournaments.models import Tournament
from tournaments.services.common import tournament_check

DAYS_AHEAD = (1, 60)
# What a series may set of its tournaments: the rules and the entry conditions (the name,
# times, status and record are the series' own or the tournament's).
TOURNAMENT_FIELDS = frozenset(
    {
        "description", "format", "players_per_table", "preset", "options", "match_target",
        "rated", "move_seconds", "round_minutes", "rounds", "duration_minutes", "advance",
        "boards", "movement", "duplicate_bots", "boards_from_zero", "placement_points",
        "bot_level", "arena_range", "arena_widen", "check_in_minutes", "break_seconds",
        "max_players", "min_rating", "min_rated_matches",
    }
)  # fmt: skip
CANCELLABLE = (
    Tournament.Status.DRAFT,
    Tournament.Status.SCHEDULED,
    Tournament.Status.REGISTRATION,
)


def _require(user: User, club: Club) -> None:
    if not selectors.can(user=user, club=club, right="events"):
        raise errors.Forbidden()


def series_check(series: Series) -> None:
    """A series's weekday, zone, days ahead and tournament settings, checked before it is
    saved (the tournaments app checks the settings)."""
    if not 0 <= series.weekday <= 6:
        raise errors.Invalid(_("A weekday is 0 (Monday) to 6 (Sunday)."))
    if not DAYS_AHEAD[0] <= series.days_ahead <= DAYS_AHEAD[1]:
        raise errors.Invalid(_("Events are created 1 to 60 days ahead."))
    try:
        validate_time_zone(series.time_zone)
    except ValidationError as exc:
        raise errors.Invalid(_("Unknown time zone.")) from exc
    start = timezone.now() + timedelta(days=1)
    fields = series.tournament_fields
    if not isinstance(fields, dict) or not set(fields) <= TOURNAMENT_FIELDS:
        raise errors.Invalid(_("Unknown tournament settings."))
    trial = Tournament(
        name=series.name,
        starts_at=start,
        registration_opens_at=start - timedelta(hours=series.registration_hours),
        **fields,
    )
    tournament_check(trial)  # the tournaments app's own checks of the settings


@transaction.atomic
def series_create(
    *,
    user: User,
    club: Club,
    name: str,
    weekday: int,
    start_time: time,
    time_zone: str = "",
    days_ahead: int = 7,
    registration_hours: int = 48,
    members_only: bool = False,
    **tournament_fields: Any,
) -> Series:
    """A recurring evening of the club (the events right), in the club's zone unless told."""
    _require(user, club)
    if club.archived_at is not None:
        raise errors.WrongState(_("This club is archived."))
    series = Series(
        club=club,
        name=name.strip()[:100],
        weekday=weekday,
        start_time=start_time,
        time_zone=time_zone or club.time_zone,
        days_ahead=days_ahead,
        registration_hours=registration_hours,
        members_only=members_only,
        tournament_fields=tournament_fields,
        created_by=user,
    )
    series_check(series)
    series.save()
    return series


@transaction.atomic
def series_update(*, user: User, series: Series, **fields: Any) -> Series:
    """Change every occurrence not created yet (one already created is a tournament: change it
    in the admin)."""
    _require(user, series.club)
    allowed = {"name", "start_time", "days_ahead", "registration_hours", "members_only"}
    if not set(fields) <= allowed | {"tournament_fields"}:
        raise errors.Invalid(_("These settings cannot be changed here."))
    for key, value in fields.items():
        setattr(series, key, value)
    series_check(series)
    series.save()
    return series


@transaction.atomic
def series_skip(*, user: User, series: Series, day: date) -> Series:
    """Leave one date out; its event, if already created and not yet started, is cancelled."""
    _require(user, series.club)
    if day.isoformat() not in series.skipped:
        series.skipped = sorted([*series.skipped, day.isoformat()])
        series.save(update_fields=["skipped"])
    event = ClubEvent.objects.filter(series=series, occurrence=day).select_related("tournament")
    for found in event:
        if found.tournament.status in CANCELLABLE:
            tournament_services.tournament_cancel(
                tournament=found.tournament, reason=_("This evening is skipped.")
            )
    return series


@transaction.atomic
def series_stop(*, user: User, series: Series) -> Series:
    """No further occurrence is created; those already created stay (cancel them if need be)."""
    _require(user, series.club)
    if series.stopped_at is None:
        series.stopped_at = timezone.now()
        series.save(update_fields=["stopped_at"])
    return series


def series_materialize(*, series: Series, now: datetime | None = None) -> list[ClubEvent]:
    """Create and schedule the occurrences of the next ``days_ahead`` days not created yet."""
    now = now or timezone.now()
    if series.stopped_at is not None or series.club.archived_at is not None:
        return []
    created = []
    for day, moment in occurrences(
        weekday=series.weekday,
        at=series.start_time,
        zone=series.time_zone,
        start=now,
        end=now + timedelta(days=series.days_ahead),
        skipped=series.skipped,
    ):
        if ClubEvent.objects.filter(series=series, occurrence=day).exists():
            continue
        try:
            with transaction.atomic():
                tournament = tournament_services.tournament_create(
                    created_by=series.created_by,  # type: ignore[arg-type]
                    name=f"{series.name} · {day.isoformat()}",
                    starts_at=moment,
                    registration_opens_at=moment - timedelta(hours=series.registration_hours),
                    **series.tournament_fields,
                )
                tournament = tournament_services.tournament_schedule(tournament=tournament)
                created.append(
                    ClubEvent.objects.create(
                        club=series.club,
                        tournament=tournament,
                        members_only=series.members_only,
                        series=series,
                        occurrence=day,
                    )
                )
        except IntegrityError:  # another run created it meanwhile
            continue
    return created


def series_materialize_all(*, now: datetime | None = None) -> int:
    """Every running series' coming occurrences (the beat task); how many were created."""
    active = Series.objects.filter(stopped_at__isnull=True, club__archived_at__isnull=True)
    return sum(len(series_materialize(series=s, now=now)) for s in active.select_related("club"))


def season_check(season: Season) -> None:
    """A season's dates and scoring, checked before it is saved."""
    if season.ends_on < season.starts_on:
        raise errors.Invalid(_("A season ends on or after its first day."))
    if season.scheme not in Season.Scheme.values:
        raise errors.Invalid(_("Unknown scoring scheme."))
    points = season.points
    if not isinstance(points, list) or len(points) > 200:
        raise errors.Invalid(_("Points per place are whole numbers, 0 or more."))
    if any(isinstance(p, bool) or not isinstance(p, int) or p < 0 for p in points):
        raise errors.Invalid(_("Points per place are whole numbers, 0 or more."))
    if season.scheme == Season.Scheme.LIST and not points:
        raise errors.Invalid(_("A custom list needs the points of at least the first place."))
    if season.scheme != Season.Scheme.LIST and points:
        raise errors.Invalid(_("Points per place are given only with a custom list."))
    if season.best is not None and season.best < 1:
        raise errors.Invalid(_("At least one result counts."))


@transaction.atomic
def season_create(
    *,
    user: User,
    club: Club,
    name: str,
    starts_on: date,
    ends_on: date,
    points: list[int] | None = None,
    best: int | None = None,
    scheme: str = Season.Scheme.LIST,
) -> Season:
    """A season of the club's events between two dates (the events right), scored by
    ``scheme`` (clubs/seasons.py): ``table``, ``event`` or ``list`` (with ``points``)."""
    _require(user, club)
    if club.archived_at is not None:
        raise errors.WrongState(_("This club is archived."))
    season = Season(
        club=club, name=name.strip()[:100], starts_on=starts_on, ends_on=ends_on,
        scheme=scheme, points=list(points or []), best=best,
    )  # fmt: skip
    season_check(season)
    season.save()
    return season


@transaction.atomic
def season_close(*, user: User, season: Season) -> Season:
    """Archive a season: its table is kept as it stands (no event is added after)."""
    _require(user, season.club)
    if season.closed_at is None:
        season.final = selectors.season_rows(season=season)
        season.closed_at = timezone.now()
        season.save(update_fields=["closed_at", "final"])
    return season


@transaction.atomic
def season_table_store(*, season: Season) -> bool:
    """Compute the open season's table from its events' stored results and replace the
    stored one whole (none for a closed season: its table is final). Running it twice, or
    twice at once (the season's row is locked), stores the same table."""
    season = Season.objects.select_for_update(of=("self",)).select_related("club").get(pk=season.pk)
    if season.closed_at is not None:
        return False
    events_ = selectors.season_events(season=season)
    results = selectors.season_results_stored(events_=events_)
    missing = [e for e in events_ if e.tournament_id not in results]
    found = selectors.events_results(events_=missing)
    EventResults.objects.bulk_create(
        [EventResults(event=e, rows=found[e.tournament_id]) for e in missing],
        ignore_conflicts=True,  # stored meanwhile by the event's own refresh: the same rows
    )
    results.update(found)
    fields = {
        "key": selectors.season_key(season=season, events_=events_),
        "rows": selectors.season_lines(season=season, events_=events_, results=results),
        "computed_at": timezone.now(),
    }
    # Replaced whole, without reading the old table back.
    if not SeasonTable.objects.filter(season=season).update(**fields):
        SeasonTable.objects.create(season=season, **fields)
    return True


@transaction.atomic
def event_seasons_refresh(*, tournament_id: int) -> int:
    """A club event's standings were written (it finished, or a result was amended): store
    its results as seasons score them, then the tables of the club's open seasons whose
    dates hold it; how many tables were stored. Nothing for an event not finished (no
    season counts it yet) or not a club's."""
    event = (
        ClubEvent.objects.select_for_update(of=("self",))
        .select_related("tournament", "club")
        .filter(tournament_id=tournament_id, tournament__status=Tournament.Status.FINISHED)
        .first()
    )
    if event is None:
        return 0
    rows = selectors.events_results(events_=[event])[tournament_id]
    EventResults.objects.bulk_create(  # one statement: inserted, or replaced whole
        [EventResults(event=event, rows=rows, written_at=timezone.now())],
        update_conflicts=True,
        unique_fields=["event"],
        update_fields=["rows", "written_at"],
    )
    day = timezone.localtime(event.tournament.starts_at, ZoneInfo(event.club.time_zone)).date()
    open_ = Season.objects.filter(
        club=event.club, closed_at__isnull=True, starts_on__lte=day, ends_on__gte=day
    )
    return sum(season_table_store(season=s) for s in open_)
