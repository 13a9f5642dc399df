"""A player's own time zone: chosen in the profile, every time on the pages in it."""

from datetime import UTC, datetime, timedelta

import pytest
from django.urls import reverse

from accounts.models import User
from tests.factories import UserFactory
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

PROFILE = reverse("accounts:profile")
ME = "/api/v1/me/"
# 15 January: Kyiv is on winter time, two hours ahead of UTC.
STARTS_AT = datetime(2027, 1, 15, 18, 30, tzinfo=UTC)


@pytest.fixture
def announced_tournament() -> Tournament:
    t = services.tournament_create(
        created_by=None,
        name="Winter cup",
        format=Tournament.Format.SWISS,
        players_per_table=3,
        preset="simple",
        match_target=1000,
        rated=False,
        rounds=3,
        registration_opens_at=STARTS_AT - timedelta(days=7),
        starts_at=STARTS_AT,
    )
    return services.tournament_schedule(tournament=t)


def _profile_form(**fields: str) -> dict[str, str]:
    return {"display_name": "", "country": "", "preferred_language": "", **fields}


def test_the_profile_saves_a_time_zone(client):
    user = UserFactory()
    client.force_login(user)

    response = client.post(PROFILE, _profile_form(time_zone="Europe/Kyiv"))

    assert response.status_code == 302
    user.refresh_from_db()
    assert user.time_zone == "Europe/Kyiv"


def test_an_unknown_time_zone_is_refused_and_changes_nothing(client):
    user = UserFactory(display_name="Before", time_zone="Europe/Warsaw")
    client.force_login(user)

    response = client.post(PROFILE, _profile_form(display_name="After", time_zone="Mars/Olympus"))

    assert response.status_code == 400
    user.refresh_from_db()
    assert (user.display_name, user.time_zone) == ("Before", "Europe/Warsaw")


def test_the_profile_offers_the_zones_by_region_and_the_sites_own_first(client):
    client.force_login(UserFactory())

    html = client.get(PROFILE).content.decode()

    assert '<option value="" selected>The site&#x27;s zone (UTC)</option>' in html
    assert (
        '<optgroup label="Europe">' in html
        and '<option value="Europe/Kyiv">Europe/Kyiv</option>' in html
    )


def test_pages_show_times_in_the_players_own_zone(client, announced_tournament):
    client.force_login(UserFactory(time_zone="Europe/Kyiv"))

    html = client.get(reverse("tournaments")).content.decode()

    assert "15 January 2027, 20:30 EET" in html


def test_without_a_zone_of_his_own_a_player_sees_the_sites_zone(client, announced_tournament):
    client.force_login(UserFactory())

    html = client.get(reverse("tournaments")).content.decode()

    assert "15 January 2027, 18:30 UTC" in html


# The view runs on another thread (its own connection): the tournament must be committed.
@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_zone_holds_for_requests_served_asynchronously(
    async_client, announced_tournament
):
    user = await User.objects.acreate(username="olena", time_zone="America/New_York")
    await async_client.aforce_login(user)

    response = await async_client.get(reverse("tournaments"))

    assert "15 January 2027, 13:30 EST" in response.content.decode()


def test_an_organiser_types_times_into_the_admin_in_his_own_zone(client, announced_tournament):
    organiser = UserFactory(is_staff=True, is_superuser=True, time_zone="Europe/Kyiv")
    client.force_login(organiser)

    html = client.get(
        reverse("admin:tournaments_tournament_change", args=[announced_tournament.pk])
    ).content.decode()

    assert 'value="20:30:00"' in html


def test_the_api_sets_and_checks_the_time_zone(client):
    user = UserFactory()
    client.force_login(user)

    refused = client.patch(ME, {"time_zone": "Nowhere/At_All"}, content_type="application/json")
    saved = client.patch(ME, {"time_zone": "Asia/Tbilisi"}, content_type="application/json")

    assert (refused.status_code, saved.status_code, saved.json()["time_zone"]) == (
        400,
        200,
        "Asia/Tbilisi",
    )


def test_a_zone_this_machine_no_longer_knows_falls_back_to_the_sites(client, announced_tournament):
    # Saved before a tz database update renamed it, say: the pages must still answer.
    user = UserFactory()
    User.objects.filter(pk=user.pk).update(time_zone="Gone/Away")
    client.force_login(user)

    html = client.get(reverse("tournaments")).content.decode()

    assert "15 January 2027, 18:30 UTC" in html
