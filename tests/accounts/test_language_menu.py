"""The header's language menu."""

import pytest
from django.urls import reverse

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

SET_LANGUAGE = reverse("set_language")


def test_header_choice_wins_over_the_preferred_language(client):
    client.force_login(UserFactory(preferred_language="uk"))

    response = client.post(SET_LANGUAGE, {"language": "en", "next": "/"}, follow=True)

    assert response.headers["Content-Language"] == "en"
    assert "Tournaments" in response.content.decode()


def test_header_choice_becomes_the_preferred_language(client):
    user = UserFactory(preferred_language="uk")
    client.force_login(user)

    client.post(SET_LANGUAGE, {"language": "ru", "next": "/"})

    user.refresh_from_db()
    assert user.preferred_language == "ru"


def test_unknown_language_changes_nothing(client):
    user = UserFactory(preferred_language="uk")
    client.force_login(user)

    client.post(SET_LANGUAGE, {"language": "xx", "next": "/"})

    user.refresh_from_db()
    assert user.preferred_language == "uk"


def test_visitor_choice_is_kept_in_the_cookie_only(client):
    response = client.post(SET_LANGUAGE, {"language": "ru", "next": "/"})

    assert response.cookies["django_language"].value == "ru"


def test_language_menu_returns_to_the_page_it_was_used_on(client):
    response = client.post(SET_LANGUAGE, {"language": "uk", "next": reverse("rules")})

    assert response.status_code == 302
    assert response.url == reverse("rules")
