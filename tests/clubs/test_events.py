"""A club's events: members only or open, the club's name on the event's page, who may
make them, and the club page's lists and leaderboard."""

from __future__ import annotations

from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse

from clubs import errors, selectors, services
from clubs.models import ClubEvent
from ratings.models import Competitor, Rating
from tests.clubs.helpers import club, event, founder_of, member
from tests.factories import UserFactory
from tournaments import errors as tournament_errors
from tournaments import services as tournament_services
from tournaments.models import Registration

pytestmark = pytest.mark.django_db


def test_a_members_only_event_refuses_a_stranger() -> None:
    e = event(club(), members_only=True)
    with pytest.raises(tournament_errors.NotEligible):
        tournament_services.registration_create(tournament=e.tournament, user=UserFactory())
    assert not Registration.objects.filter(tournament=e.tournament).exists()


def test_a_members_only_event_takes_a_member() -> None:
    c = club()
    e, someone = event(c, members_only=True), member(c)
    tournament_services.registration_create(tournament=e.tournament, user=someone)
    assert Registration.objects.filter(tournament=e.tournament, user=someone).exists()


def test_a_former_member_cannot_come_back_to_a_members_only_event_after_withdrawing() -> None:
    c = club()
    e, someone = event(c, members_only=True), member(c)
    tournament_services.registration_create(tournament=e.tournament, user=someone)
    tournament_services.registration_withdraw(tournament=e.tournament, user=someone)
    services.club_leave(user=someone, club=c)
    with pytest.raises(tournament_errors.NotEligible):
        tournament_services.registration_create(tournament=e.tournament, user=someone)
    assert Registration.objects.get(user=someone).status == Registration.Status.WITHDRAWN


def test_an_open_club_event_takes_anyone() -> None:
    e = event(club())
    tournament_services.registration_create(tournament=e.tournament, user=UserFactory())
    assert e.tournament.registrations.count() == 1


def test_only_the_events_right_makes_a_clubs_event() -> None:
    c = club()
    with pytest.raises(errors.Forbidden):
        event(c, by=member(c, rights={"members"}))
    assert not ClubEvent.objects.exists()
    assert event(c, by=member(c, rights={"events"})).club == c


def test_moving_an_event_between_clubs_is_a_superusers_act() -> None:
    first, second = club(), club()
    e = event(first)
    organiser = member(second, rights={"events"})
    with pytest.raises(errors.Forbidden):
        services.club_event_attach(user=organiser, club=second, tournament=e.tournament)
    boss = UserFactory(is_superuser=True, is_staff=True)
    services.club_event_attach(user=boss, club=second, tournament=e.tournament)
    e.refresh_from_db()
    assert e.club == second


def test_the_event_page_names_its_club(client) -> None:  # type: ignore[no-untyped-def]
    c = club(name="Thursday Club")
    e = event(c, members_only=True)
    page = client.get(reverse("tournaments:detail", args=[e.tournament_id])).content.decode()
    assert "Thursday Club" in page and reverse("clubs:detail", args=[c.slug]) in page


def test_the_club_page_lists_upcoming_events_and_members(client) -> None:  # type: ignore[no-untyped-def]
    c = club()
    e = event(c)
    page = client.get(reverse("clubs:detail", args=[c.slug])).content.decode()
    assert e.tournament.name in page
    assert founder_of(c).get_display_name() in page


def test_the_club_leaderboard_shows_only_members_by_pool_best_first() -> None:
    c = club()
    low, high, stranger = member(c), member(c), UserFactory()
    for user, value in ((low, 1400.0), (high, 1600.0), (stranger, 1900.0)):
        competitor = Competitor.objects.create(user=user)
        Rating.objects.create(competitor=competitor, players=3, rating=value, games=5)
    rows = selectors.leaderboard(club=c, players=3)
    assert [r.username for r in rows] == [high.username, low.username]
    assert selectors.leaderboard(club=c, players=2) == []


def test_founding_a_club_through_its_page(client) -> None:  # type: ignore[no-untyped-def]
    someone = UserFactory()
    client.force_login(someone)
    answer = client.post(
        reverse("clubs:new"),
        {"name": "Lviv Club", "slug": "lviv", "time_zone": "Europe/Kyiv", "access": "ask"},
    )
    assert answer.status_code == 302
    assert selectors.can(user=someone, club=selectors.club_by_slug("lviv"), right="roles")  # type: ignore[arg-type]


def test_joining_and_leaving_through_the_club_page(client) -> None:  # type: ignore[no-untyped-def]
    c, someone = club(), UserFactory()
    client.force_login(someone)
    client.post(reverse("clubs:action", args=[c.slug, "join"]))
    assert selectors.membership_of(user=someone, club=c) is not None
    client.post(reverse("clubs:action", args=[c.slug, "leave"]))
    assert selectors.membership_of(user=someone, club=c) is None


def test_an_invitation_page_joins_its_club(client) -> None:  # type: ignore[no-untyped-def]
    c = club(access="private")
    link = services.invitation_create(user=founder_of(c), club=c)
    someone = UserFactory()
    client.force_login(someone)
    assert client.get(reverse("clubs:invitation", args=[link.token])).status_code == 200
    client.post(reverse("clubs:invitation", args=[link.token]))
    assert selectors.membership_of(user=someone, club=c) is not None


def test_the_club_page_shows_an_events_start_in_the_clubs_zone(client) -> None:  # type: ignore[no-untyped-def]
    c = club(time_zone="Europe/Kyiv")
    e = event(c)
    local = e.tournament.starts_at.astimezone(ZoneInfo("Europe/Kyiv"))
    page = client.get(reverse("clubs:detail", args=[c.slug])).content.decode()
    assert f"{local:%Y-%m-%d %H:%M}" in page
