"""A table's chat can be off from the moment it is opened: the lobby's "Table chat off"
box and the API's ``chat: false``; the social app keeps the switch, games only says
what its creator asked for (``games.signals.table_opened``)."""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from games.models import Table
from social.forms import ChallengeForm
from social.selectors import table_chat_off
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

LOBBY_FORM = {"players": "3", "preset": "classic", "move_seconds": "30"}


def test_the_lobby_box_opens_the_table_with_its_chat_off(client):
    client.force_login(user := UserFactory())

    client.post(reverse("games:create"), {**LOBBY_FORM, "chat_off": "on"})

    assert table_chat_off(Table.objects.get(created_by=user).pk)


def test_a_table_opened_from_the_lobby_has_its_chat_on_unless_asked(client):
    client.force_login(user := UserFactory())

    client.post(reverse("games:create"), LOBBY_FORM)

    assert not table_chat_off(Table.objects.get(created_by=user).pk)


def test_the_lobby_form_shows_the_box(client):
    client.force_login(UserFactory())

    page = client.get(reverse("games:lobby")).content.decode()

    assert 'name="chat_off"' in page


@pytest.mark.parametrize(("chat", "off"), [(False, True), (True, False)])
def test_the_api_opens_a_table_with_its_chat_as_asked(chat, off):
    api = APIClient()
    api.force_authenticate(user := UserFactory())

    response = api.post("/api/v1/tables/", {"chat": chat}, format="json")

    assert response.status_code == 201
    assert table_chat_off(Table.objects.get(created_by=user).pk) is off


def test_a_refused_table_switches_no_chat():
    api = APIClient()
    api.force_authenticate(UserFactory())

    response = api.post("/api/v1/tables/", {"chat": False, "players": 5}, format="json")

    assert response.status_code == 400 and not Table.objects.exists()


def test_a_challenge_has_no_such_box():
    assert "chat_off" not in ChallengeForm().fields
