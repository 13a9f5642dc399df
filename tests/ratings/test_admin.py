"""Corrections in the admin site, and `manage.py recompute_ratings`."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from ratings.models import Rating, RatingChange
from ratings.services import rating_apply_result
from tests.factories import UserFactory
from tests.ratings.helpers import finished_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client: Client) -> Client:
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


def test_annul_action_undoes_the_ratings(admin_client: Client) -> None:
    result = finished_match([UserFactory(), UserFactory(), UserFactory()])
    rating_apply_result(result_id=result.pk)
    admin_client.post(
        "/admin/ratings/ratedresult/",
        {"action": "annul", "_selected_action": [result.pk]},
    )
    assert (RatingChange.objects.count(), set(Rating.objects.values_list("rating", flat=True))) == (
        0,
        {1500.0},
    )


def test_amending_places_in_the_admin_recomputes(admin_client: Client) -> None:
    a, b, c = UserFactory(), UserFactory(), UserFactory()
    result = finished_match([a, b, c], places=[1, 2, 3])
    rating_apply_result(result_id=result.pk)
    admin_client.post(
        f"/admin/ratings/ratedresult/{result.pk}/change/",
        {"amended_placements": "[3, 2, 1]", "reason": "wrong seat order"},
    )
    assert RatingChange.objects.get(result=result, competitor__user=c).place == 1


def test_places_amended_in_the_admin_are_the_places_the_games_pages_and_api_show(
    admin_client: Client,
) -> None:
    a, b, c = UserFactory(), UserFactory(), UserFactory()
    result = finished_match([a, b, c], places=[1, 2, 3])
    rating_apply_result(result_id=result.pk)
    admin_client.post(
        f"/admin/ratings/ratedresult/{result.pk}/change/",
        {"amended_placements": "[3, 2, 1]", "reason": "wrong seat order"},
    )
    player = Client()
    player.force_login(c)

    page = player.get(reverse("games:table", args=[result.table_id])).content.decode()
    matches = player.get(reverse("games:matches")).content.decode()
    api = player.get(f"/api/v1/tables/{result.table_id}/").json()["result"]

    assert "The organiser amended the places: wrong seat order" in page
    assert "place 1," in matches
    assert (api["placements"], api["amended"]) == (
        [3, 2, 1],
        {"reason": "wrong seat order", "played_placements": [1, 2, 3]},
    )


def test_amending_with_bad_places_shows_an_error(admin_client: Client) -> None:
    result = finished_match([UserFactory(), UserFactory(), UserFactory()])
    response = admin_client.post(
        f"/admin/ratings/ratedresult/{result.pk}/change/", {"amended_placements": "[7]"}
    )
    assert "Give each of the 3 seats a place" in response.content.decode()


def test_the_result_list_page_opens(admin_client: Client) -> None:
    finished_match([UserFactory(), UserFactory()])
    assert admin_client.get("/admin/ratings/ratedresult/").status_code == 200


def test_recompute_command_reports_what_changed() -> None:
    a, b, c = UserFactory(display_name="Ann"), UserFactory(), UserFactory()
    rating_apply_result(result_id=finished_match([a, b, c]).pk)
    Rating.objects.filter(competitor__user=a).update(rating=1234)
    out = StringIO()
    call_command("recompute_ratings", stdout=out)
    assert "1 ratings changed" in out.getvalue() and "Ann (3 players): 1234.0" in out.getvalue()
