import pytest
from django.urls import reverse

from accounts.models import User
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

SIGNUP = reverse("accounts:signup")


def signup_data(**overrides: str) -> dict[str, str]:
    return {
        "username": "marusya",
        "display_name": "Маруся",
        "password1": PASSWORD,
        "password2": PASSWORD,
        **overrides,
    }


def test_signup_creates_the_account_and_signs_the_player_in(client):
    response = client.post(SIGNUP, signup_data())

    assert response.status_code == 302
    user = User.objects.get(username="marusya")
    assert user.display_name == "Маруся"
    assert user.check_password(PASSWORD)
    assert client.get(reverse("home")).context["user"] == user


def test_signup_page_shows_the_form(client):
    response = client.get(SIGNUP)

    assert response.status_code == 200
    assert b'name="username"' in response.content
    assert b'name="password1"' in response.content


def test_signup_with_a_taken_name_in_other_case_is_refused_and_creates_nothing(client):
    UserFactory(username="Marusya")

    response = client.post(SIGNUP, signup_data(username="marusya"))

    assert response.status_code == 400
    assert "A user with that username already exists." in response.content.decode()
    assert User.objects.count() == 1


def test_signup_with_a_common_password_is_refused_and_creates_nothing(client):
    response = client.post(SIGNUP, signup_data(password1="password", password2="password"))

    assert response.status_code == 400
    assert "This password is too common." in response.content.decode()
    assert not User.objects.exists()


def test_signup_with_a_short_numeric_password_lists_every_reason(client):
    response = client.post(SIGNUP, signup_data(password1="12345", password2="12345"))

    page = response.content.decode()
    assert "This password is too short." in page
    assert "This password is entirely numeric." in page
    assert not User.objects.exists()


def test_signup_with_mismatched_passwords_is_refused(client):
    response = client.post(SIGNUP, signup_data(password2=PASSWORD + "!"))

    assert response.status_code == 400
    assert "The two password fields didn" in response.content.decode()
    assert not User.objects.exists()


def test_signup_with_an_invalid_name_is_refused(client):
    response = client.post(SIGNUP, signup_data(username="no spaces please"))

    assert response.status_code == 400
    assert "Enter a valid username." in response.content.decode()
    assert not User.objects.exists()


def test_weak_password_errors_are_shown_under_the_password_field(client):
    response = client.post(SIGNUP, signup_data(password1="password", password2="password"))

    errors = response.context["form"].errors
    assert "This password is too common." in errors["password1"]
    assert "password2" not in errors
