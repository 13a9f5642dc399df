"""The admin's pages and actions of a club's recurring evenings and seasons, by the same
callers as the events' matrix (tests/clubs/test_admin_scope.py): a superuser, the club's
organiser (the events right alone), another club's organiser, a member of the club with
every right but events, a plain member, a stranger and an anonymous visitor. Allowed where
it should be; refused elsewhere, and then nothing in the database changed (read back)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, time
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from clubs import selectors
from clubs import series as series_services
from clubs.models import ClubEvent, Season, Series
from tests.clubs.admin_matrix import (
    CALLERS,
    ORGANISERS,
    Case,
    action,
    changelist,
    check,
    client_for,
)
from tests.clubs.helpers import club, founder_of, member
from tests.factories import UserFactory
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

SWISS = {
    "format": "swiss", "players_per_table": 3, "preset": "simple", "match_target": 100,
    "rated": False, "rounds": 4,
}  # fmt: skip


@dataclass
class World:
    club_id: int
    other_club_id: int
    series: Series
    season: Season
    closed: Season
    clients: dict[str, Client]


@pytest.fixture
def world() -> World:
    a, b = club(), club()
    evenings = series_services.series_create(
        user=founder_of(a), club=a, name="Alpha Thursdays", weekday=3, start_time=time(19),
        days_ahead=14, **SWISS,
    )  # fmt: skip
    series_services.series_create(
        user=founder_of(b), club=b, name="Beta Fridays", weekday=4, start_time=time(19), **SWISS
    )
    season = series_services.season_create(
        user=founder_of(a), club=a, name="Alpha spring", starts_on=date(2027, 3, 1),
        ends_on=date(2027, 5, 31), scheme="event",
    )  # fmt: skip
    closed = series_services.season_create(
        user=founder_of(a), club=a, name="Alpha winter", starts_on=date(2026, 12, 1),
        ends_on=date(2027, 2, 28), scheme="list", points=[3, 2, 1],
    )  # fmt: skip
    series_services.season_close(user=founder_of(a), season=closed)
    series_services.season_create(
        user=founder_of(b), club=b, name="Beta spring", starts_on=date(2027, 3, 1),
        ends_on=date(2027, 5, 31), scheme="table",
    )  # fmt: skip
    users = {
        "superuser": UserFactory(is_superuser=True, is_staff=True),
        "organiser": member(a, rights={"events"}),
        "other_organiser": member(b, rights={"events"}),
        "other_rights": member(a, rights={"settings", "moderation", "members", "messages"}),
        "member": member(a),
        "stranger": UserFactory(),
        "anonymous": None,
    }
    clients = {k: client_for(u) for k, u in users.items()}
    return World(a.pk, b.pk, evenings, season, closed, clients)


def snapshot() -> list[Any]:
    return [
        list(m.objects.order_by("pk").values()) for m in (Series, Season, ClubEvent, Tournament)
    ]


def _list(model: str) -> Callable[[World], str]:
    return changelist(f"clubs_{model}")


def _action(model: str, name: str, obj: Callable[[World], Any]) -> Case:
    return action(f"clubs_{model}", name, obj)


def _coming(s: Series) -> list[selectors.Evening]:
    return selectors.series_coming(series=s)


def _series_form(w: World, **changes: Any) -> dict[str, Any]:
    return {
        "club": w.club_id, "name": "Alpha Tuesdays", "weekday": 1, "start_time": "18:30",
        "time_zone": "Europe/Kyiv", "tournament_fields": '{"format": "swiss", "rounds": 3, '
        '"players_per_table": 3, "preset": "simple", "match_target": 100, "rated": false}',
        "days_ahead": 7, "registration_hours": 48, **changes,
    }  # fmt: skip


def _season_form(w: World, **changes: Any) -> dict[str, Any]:
    return {
        "club": w.club_id, "name": "Alpha summer", "starts_on": "2027-06-01",
        "ends_on": "2027-08-31", "scheme": "list", "points": "[10, 6, 4]", "best": "3",
        **changes,
    }  # fmt: skip


CASES = {
    "series list": Case("get", _list("series"), marker="Alpha Thursdays"),
    "series page": Case(
        "get",
        lambda w: reverse("admin:clubs_series_change", args=[w.series.pk]),
        marker="Alpha Thursdays",
    ),
    "series add page": Case(
        "get",
        lambda w: reverse("admin:clubs_series_add"),
        allowed=frozenset({*ORGANISERS, "other_organiser"}),  # for his own club
    ),
    "series add": Case("post", lambda w: reverse("admin:clubs_series_add"), _series_form),
    "series change": Case(
        "post",
        lambda w: reverse("admin:clubs_series_change", args=[w.series.pk]),
        lambda w: _series_form(w, name="Alpha Thursdays, later"),
    ),
    "series create coming": _action("series", "create_coming", lambda w: w.series),
    "series skip next": _action("series", "skip_next", lambda w: w.series),
    "series skip a chosen date": Case(
        "post",
        _list("series"),
        lambda w: {
            "action": "skip_date",
            "_selected_action": [w.series.pk],
            "apply": "1",
            "day": _coming(w.series)[1].day.isoformat(),
        },
    ),
    "series stop": _action("series", "stop", lambda w: w.series),
    "series delete": Case(
        "post",
        lambda w: reverse("admin:clubs_series_delete", args=[w.series.pk]),
        lambda w: {"post": "yes"},
        allowed=frozenset({"superuser"}),  # a club stops its series
    ),
    "season list": Case("get", _list("season"), marker="Alpha spring"),
    "season page": Case(
        "get",
        lambda w: reverse("admin:clubs_season_change", args=[w.season.pk]),
        marker="Alpha spring",
    ),
    "season add": Case("post", lambda w: reverse("admin:clubs_season_add"), _season_form),
    "season change": Case(
        "post",
        lambda w: reverse("admin:clubs_season_change", args=[w.season.pk]),
        lambda w: _season_form(w, name="Alpha spring, longer", scheme="event", points="[]"),
    ),
    "closed season change": Case(
        "post",
        lambda w: reverse("admin:clubs_season_change", args=[w.closed.pk]),
        lambda w: _season_form(w, name="Alpha winter rewritten"),
        allowed=frozenset(),  # a closed season is kept as it stood
    ),
    "season close": _action("season", "close", lambda w: w.season),
    "season delete": Case(
        "post",
        lambda w: reverse("admin:clubs_season_delete", args=[w.season.pk]),
        lambda w: {"post": "yes"},
        allowed=frozenset({"superuser"}),
    ),
}


@pytest.mark.parametrize("caller", CALLERS)
@pytest.mark.parametrize("case", sorted(CASES))
def test_a_series_or_season_admin_url_serves_only_the_superuser_and_the_clubs_organiser(
    world: World, case: str, caller: str
) -> None:
    check(
        CASES[case], world, caller, world.clients[caller], snapshot,
        default=ORGANISERS, leak="Alpha Thursdays",
    )  # fmt: skip


def test_another_clubs_organiser_lists_only_his_own_series_and_seasons(world: World) -> None:
    client = world.clients["other_organiser"]
    series_page = client.get(reverse("admin:clubs_series_changelist")).content.decode()
    season_page = client.get(reverse("admin:clubs_season_changelist")).content.decode()
    assert "Beta Fridays" in series_page and "Alpha" not in series_page
    assert "Beta spring" in season_page and "Alpha" not in season_page


def test_an_organiser_starts_a_series_only_for_his_club(world: World) -> None:
    client = world.clients["organiser"]
    form = client.get(reverse("admin:clubs_series_add")).context["adminform"].form
    assert [c[0].value for c in form.fields["club"].choices if c[0]] == [world.club_id]
    answer = client.post(
        reverse("admin:clubs_series_add"), _series_form(world, club=world.other_club_id)
    )
    assert answer.status_code == 200 and "errorlist" in answer.content.decode()
    assert not Series.objects.filter(name="Alpha Tuesdays").exists()


def test_a_series_with_settings_the_tournaments_app_refuses_is_not_saved(world: World) -> None:
    client = world.clients["organiser"]
    answer = client.post(
        reverse("admin:clubs_series_add"),
        _series_form(world, tournament_fields='{"format": "swiss", "rounds": 0}'),
    )
    assert answer.status_code == 200 and "errorlist" in answer.content.decode()
    assert not Series.objects.filter(name="Alpha Tuesdays").exists()


def test_skipping_the_next_evening_cancels_its_event_once_created(world: World) -> None:
    client = world.clients["organiser"]
    changelist = reverse("admin:clubs_series_changelist")
    client.post(changelist, {"action": "create_coming", "_selected_action": [world.series.pk]})
    events = ClubEvent.objects.filter(series=world.series).order_by("occurrence")
    assert events.count() == 2
    first = events[0]
    client.post(changelist, {"action": "skip_next", "_selected_action": [world.series.pk]})
    world.series.refresh_from_db()
    first.tournament.refresh_from_db()
    assert world.series.skipped == [first.occurrence.isoformat()]
    assert first.tournament.status == Tournament.Status.CANCELLED


def test_an_organiser_skips_a_chosen_date_from_the_coming_ones_and_only_that_one(
    world: World,
) -> None:
    client = world.clients["organiser"]
    changelist = reverse("admin:clubs_series_changelist")
    client.post(changelist, {"action": "create_coming", "_selected_action": [world.series.pk]})
    first, second, third = _coming(world.series)[:3]
    assert first.event is not None and second.event is not None and third.event is None
    page = client.post(
        changelist, {"action": "skip_date", "_selected_action": [world.series.pk]}
    ).content.decode()
    for evening in (first, second, third):
        assert f'value="{evening.day.isoformat()}"' in page
    chosen = {"action": "skip_date", "_selected_action": [world.series.pk], "apply": "1"}
    client.post(changelist, {**chosen, "day": second.day.isoformat()})
    world.series.refresh_from_db()
    assert world.series.skipped == [second.day.isoformat()]
    assert Tournament.objects.get(pk=second.event.tournament_id).status == (
        Tournament.Status.CANCELLED
    )
    assert Tournament.objects.get(pk=first.event.tournament_id).status != (
        Tournament.Status.CANCELLED
    )
    again = client.post(
        changelist, {"action": "skip_date", "_selected_action": [world.series.pk]}
    ).content.decode()
    assert f'value="{second.day.isoformat()}"' not in again  # skipped: offered no more


def test_a_date_the_form_did_not_offer_is_refused_and_nothing_changes(world: World) -> None:
    client = world.clients["organiser"]
    before = snapshot()
    answer = client.post(
        reverse("admin:clubs_series_changelist"),
        {
            "action": "skip_date", "_selected_action": [world.series.pk], "apply": "1",
            "day": "2027-01-01",
        },
    )  # fmt: skip
    assert answer.status_code == 200 and "errorlist" in answer.content.decode()
    assert snapshot() == before


def test_the_series_page_lists_the_coming_evenings_each_created_one_with_its_own_page(
    world: World,
) -> None:
    """Change all that follow on the series' page; one evening on its own (linked) page."""
    client = world.clients["organiser"]
    client.post(
        reverse("admin:clubs_series_changelist"),
        {"action": "create_coming", "_selected_action": [world.series.pk]},
    )
    first = _coming(world.series)[0]
    assert first.event is not None
    page = client.get(reverse("admin:clubs_series_change", args=[world.series.pk]))
    one = reverse("admin:tournaments_tournament_change", args=[first.event.tournament_id])
    assert one in page.content.decode() and "not created yet" in page.content.decode()
    assert client.get(one).status_code == 200
    other = world.clients["other_organiser"]
    assert other.get(one).status_code != 200
