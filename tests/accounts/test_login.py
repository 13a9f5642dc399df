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


def test_login_ignores_the_case_of_the_username(client):
    UserFactory(username="alice")

    response = client.post(reverse("accounts:login"), {"username": "ALICE", "password": PASSWORD})

    assert response.status_code == 302
    assert client.get(reverse("home")).context["user"].username == "alice"


def test_logout_link_shows_a_page_with_a_sign_out_button(client):
    client.force_login(UserFactory())

    response = client.get(reverse("accounts:logout"))

    page = response.content.decode()
    assert response.status_code == 200
    assert f'<form method="post" action="{reverse("accounts:logout")}">' in page
    assert client.get(reverse("home")).context["user"].is_authenticated


def test_logout_page_for_a_visitor_offers_to_sign_in(client):
    response = client.get(reverse("accounts:logout"))

    assert response.status_code == 200
    assert f'href="{reverse("accounts:login")}"' in response.content.decode()


def test_logout_says_the_player_is_signed_out(client):
    client.force_login(UserFactory())

    response = client.post(reverse("accounts:logout"), follow=True)

    assert "You have been signed out." in response.content.decode()


def test_logout_keeps_the_players_language(client):
    client.force_login(UserFactory(preferred_language="uk"))

    response = client.post(reverse("accounts:logout"), follow=True)

    assert "Ви вийшли з облікового запису." in response.content.decode()
    assert response.headers["Content-Language"] == "uk"
