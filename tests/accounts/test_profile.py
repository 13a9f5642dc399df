import pytest
from django.urls import reverse

from accounts.models import User
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PROFILE = reverse("accounts:profile")


def test_profile_needs_a_signed_in_player(client):
    response = client.get(PROFILE)

    assert response.status_code == 302
    assert response.url.startswith(reverse("accounts:login"))


def test_profile_edit_saves_name_country_and_language(client):
    user = UserFactory()
    client.force_login(user)

    response = client.post(
        PROFILE, {"display_name": "Ясь", "country": "PL", "preferred_language": "uk"}
    )

    assert response.status_code == 302
    user.refresh_from_db()
    assert (user.display_name, user.country.code, user.preferred_language) == ("Ясь", "PL", "uk")


def test_profile_edit_with_an_unknown_country_changes_nothing(client):
    user = UserFactory(display_name="Before")
    client.force_login(user)

    response = client.post(
        PROFILE, {"display_name": "After", "country": "XX", "preferred_language": ""}
    )

    assert response.status_code == 400
    assert "Select a valid choice." in response.content.decode()
    user.refresh_from_db()
    assert user.display_name == "Before"


def test_preferred_language_sets_the_language_of_the_site(client):
    client.force_login(UserFactory(preferred_language="ru"))

    response = client.get(reverse("home"))

    assert response.headers["Content-Language"] == "ru"
    assert "Турниры" in response.content.decode()


def test_display_name_falls_back_to_the_username():
    assert User(username="olek", display_name="").get_display_name() == "olek"


def test_profile_saved_message_speaks_the_newly_chosen_language(client):
    client.force_login(UserFactory())

    response = client.post(
        PROFILE, {"display_name": "", "country": "", "preferred_language": "uk"}, follow=True
    )

    assert "Профіль збережено." in response.content.decode()


def test_a_superuser_with_a_reserved_username_saves_his_time_zone(client):
    admin = User.objects.create_superuser("admin", "admin@example.com", "x-Pass-1234")
    client.force_login(admin)

    response = client.post(
        PROFILE,
        {"display_name": "", "country": "", "preferred_language": "", "time_zone": "Europe/Kyiv"},
    )

    assert (response.status_code, User.objects.get(pk=admin.pk).time_zone) == (302, "Europe/Kyiv")


def test_a_new_reserved_display_name_is_still_refused_on_the_profile(client):
    client.force_login(UserFactory())

    response = client.post(
        PROFILE, {"display_name": "Admin", "country": "", "preferred_language": ""}
    )

    assert "This name is reserved." in response.content.decode()
