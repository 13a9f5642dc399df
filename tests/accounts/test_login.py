import pytest
from django.urls import reverse

from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


def test_login_with_the_right_password_signs_the_player_in(client):
    user = UserFactory()

    response = client.post(
        reverse("accounts:login"), {"username": user.username, "password": PASSWORD}
    )

    assert response.status_code == 302
    assert response.url == reverse("home")
    assert client.get(reverse("home")).context["user"] == user


def test_login_with_a_wrong_password_shows_an_error(client):
    user = UserFactory()

    response = client.post(
        reverse("accounts:login"), {"username": user.username, "password": "nope"}
    )

    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.content.decode()
    assert not client.get(reverse("home")).context["user"].is_authenticated


def test_logout_signs_the_player_out(client):
    client.force_login(UserFactory())

    response = client.post(reverse("accounts:logout"))

    assert response.status_code == 302
    assert not client.get(reverse("home")).context["user"].is_authenticated


def test_navigation_shows_sign_out_and_the_name_when_signed_in(client):
    client.force_login(UserFactory(display_name="Тарас"))

    page = client.get(reverse("home")).content.decode()

    assert "Тарас" in page
    assert "Sign out" in page
    assert "Sign up" not in page
