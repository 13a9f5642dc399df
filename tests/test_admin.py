"""The admin site: branded, translated, and its user list fits the screen."""

import pytest
from django.urls import reverse

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

USERS = reverse("admin:accounts_user_changelist")


@pytest.fixture
def admin_client(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True, preferred_language=""))
    return client


@pytest.mark.parametrize(
    ("language", "header"),
    [
        ("en", "Thousand administration"),
        ("ru", "Администрирование «Тысячи»"),
        ("uk", "Адміністрування «Тисячі»"),
    ],
)
def test_admin_is_branded_in_every_language(admin_client, language, header):
    page = admin_client.get(reverse("admin:index"), HTTP_ACCEPT_LANGUAGE=language).content.decode()

    assert header in page
    assert "Django" not in page.split("<body")[1].split("</header>")[0]


@pytest.mark.parametrize(
    ("language", "title"),
    [
        ("en", "Select account to change"),
        ("ru", "Выберите аккаунт для изменения"),
        ("uk", "Виберіть обліковий запис щоб змінити"),
    ],
)
def test_user_list_names_the_model_grammatically(admin_client, language, title):
    page = admin_client.get(USERS, HTTP_ACCEPT_LANGUAGE=language).content.decode()

    assert title in page


def test_user_list_has_few_enough_columns_for_a_1280_px_screen(admin_client):
    response = admin_client.get(USERS)

    assert len(response.context["cl"].list_display) <= 6  # with the selection box
