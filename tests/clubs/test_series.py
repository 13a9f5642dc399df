"""Recurring evenings: the next events created ahead by the beat task, at the same local time
across a daylight-saving change, exactly once; skipping a date, stopping, the events right."""

from __future__ import annotations

from datetime import UTC, date, datetime, time
from zoneinfo import ZoneInfo

import pytest

from clubs import errors, series, tasks
from clubs.models import ClubEvent
from clubs.recurrence import occurrences
from tests.clubs.helpers import club, founder_of, member
from tournaments import errors as tournament_errors
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

KYIV = "Europe/Kyiv"
# Kyiv moves its clocks forward on Sunday 28 March 2027 (EET +2 → EEST +3).
BEFORE_CHANGE = datetime(2027, 3, 22, 12, 0, tzinfo=UTC)
SWISS = {
    "format": "swiss", "players_per_table": 3, "preset": "simple", "match_target": 100,
    "rated": False, "rounds": 4,
}  # fmt: skip


def thursdays(**fields: object) -> series.Series:
    c = club(time_zone=KYIV)
    return series.series_create(
        user=founder_of(c),
        club=c,
        name="Thursday Swiss",
        weekday=3,
        start_time=time(19, 0),
        days_ahead=14,
        **{**SWISS, **fields},
    )


def test_an_evening_keeps_its_local_time_across_a_daylight_saving_change() -> None:
    found = occurrences(
        weekday=3,
        at=time(19, 0),
        zone=KYIV,
        start=BEFORE_CHANGE,
        end=datetime(2027, 4, 5, tzinfo=UTC),
    )
    assert [(d, m.hour) for d, m in found] == [(date(2027, 3, 25), 17), (date(2027, 4, 1), 16)]
    assert {m.astimezone(ZoneInfo(KYIV)).hour for _d, m in found} == {19}


def test_a_time_in_the_spring_gap_is_played_an_hour_later_by_the_new_clock() -> None:
    ((_day, moment),) = occurrences(
        weekday=6,
        at=time(3, 30),
        zone=KYIV,
        start=BEFORE_CHANGE,
        end=datetime(2027, 3, 29, tzinfo=UTC),
    )
    assert moment.astimezone(ZoneInfo(KYIV)).time() == time(4, 30)


def test_the_beat_creates_the_coming_evenings_scheduled_at_local_time() -> None:
    s = thursdays()
    created = series.series_materialize(series=s, now=BEFORE_CHANGE)
    tournaments = [e.tournament for e in created]
    assert [t.starts_at.astimezone(ZoneInfo(KYIV)).time() for t in tournaments] == [
        time(19, 0),
        time(19, 0),
    ]
    assert {t.status for t in tournaments} == {Tournament.Status.SCHEDULED}
    assert {(t.format, t.rounds) for t in tournaments} == {("swiss", 4)}


def test_running_the_beat_again_creates_nothing_more() -> None:
    s = thursdays()
    series.series_materialize(series=s, now=BEFORE_CHANGE)
    assert series.series_materialize(series=s, now=BEFORE_CHANGE) == []
    assert ClubEvent.objects.filter(series=s).count() == 2


def test_the_beat_task_runs_every_club_series() -> None:
    thursdays()
    thursdays()
    assert tasks.series_materialize.delay().get() >= 2  # today's date, 14 days ahead


def test_a_skipped_date_gets_no_event_and_its_created_one_is_cancelled() -> None:
    s = thursdays()
    series.series_materialize(series=s, now=BEFORE_CHANGE)
    series.series_skip(user=founder_of(s.club), series=s, day=date(2027, 3, 25))
    event = ClubEvent.objects.get(series=s, occurrence=date(2027, 3, 25))
    assert event.tournament.status == Tournament.Status.CANCELLED
    later = datetime(2027, 3, 24, tzinfo=UTC)
    assert all(
        e.occurrence != date(2027, 3, 25) for e in series.series_materialize(series=s, now=later)
    )


def test_a_stopped_series_creates_nothing() -> None:
    s = thursdays()
    series.series_stop(user=founder_of(s.club), series=s)
    assert series.series_materialize(series=s, now=BEFORE_CHANGE) == []


def test_only_the_events_right_starts_or_stops_a_series() -> None:
    s = thursdays()
    someone = member(s.club, rights={"members"})
    with pytest.raises(errors.Forbidden):
        series.series_stop(user=someone, series=s)
    s.refresh_from_db()
    assert s.stopped_at is None


def test_a_series_with_impossible_settings_is_refused() -> None:
    with pytest.raises(tournament_errors.Invalid):
        thursdays(rounds=None)


def test_a_change_applies_to_the_evenings_not_created_yet() -> None:
    s = thursdays()
    series.series_materialize(series=s, now=BEFORE_CHANGE)
    series.series_update(user=founder_of(s.club), series=s, start_time=time(18, 0))
    later = series.series_materialize(series=s, now=datetime(2027, 4, 2, tzinfo=UTC))
    assert [e.tournament.starts_at.astimezone(ZoneInfo(KYIV)).hour for e in later] == [18, 18]


def test_a_series_is_started_skipped_and_stopped_through_the_api() -> None:
    from rest_framework.test import APIClient

    c = club(time_zone=KYIV)
    api = APIClient()
    api.force_authenticate(member(c, rights={"members"}))
    body = {"name": "Thursdays", "weekday": 3, "start_time": "19:00", "tournament_fields": SWISS}
    path = f"/api/v1/clubs/{c.slug}/series/"
    assert api.post(path, body, format="json").status_code == 403
    assert not series.Series.objects.exists()
    api.force_authenticate(member(c, rights={"events"}))
    answer = api.post(path, body, format="json")
    assert answer.status_code == 201, answer.content
    made = answer.json()
    assert made["time_zone"] == KYIV
    skip = api.post(f"{path}{made['id']}/skip/", {"day": "2027-03-25"}, format="json")
    assert skip.json()["skipped"] == ["2027-03-25"]
    assert api.post(f"{path}{made['id']}/stop/").json()["stopped_at"] is not None


def test_a_series_setting_that_is_not_a_tournaments_is_refused() -> None:
    with pytest.raises(errors.Invalid):
        thursdays(status="running")
    assert not series.Series.objects.exists()
