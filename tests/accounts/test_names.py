"""Names that impersonate are refused (issue 15, item 10): control and format
characters, reserved words, and names that look like another player's."""

import pytest
from django.core.exceptions import ValidationError
from hypothesis import given
from hypothesis import strategies as st
from rest_framework.test import APIClient

from accounts.names import name_key
from accounts.services import user_create, user_profile_update
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "a long passphrase 7"


def refused(field: str, **names: str) -> list[str]:
    with pytest.raises(ValidationError) as caught:
        user_create(password=PASSWORD, **names)
    return caught.value.message_dict[field]


def test_a_cyrillic_lookalike_of_an_existing_username_is_refused():
    user_create(username="alice", password=PASSWORD)

    assert refused("username", username="\u0430lice") == [
        "This name looks too much like another player's name."
    ]


def test_a_display_name_may_not_look_like_another_players_username():
    user_create(username="alice", password=PASSWORD)

    assert refused("display_name", username="mallory", display_name="ALICE")


def test_a_username_may_not_look_like_another_players_display_name():
    user_create(username="player7", display_name="Queen of Spades", password=PASSWORD)

    assert refused("username", username="queenofspades")


@pytest.mark.parametrize("name", ["admin", "Administrator", "SYSTEM", "\u0430dmin", "Bot (basic)"])
def test_reserved_words_are_refused(name):
    field = "display_name" if " " in name else "username"
    names = {"username": "someone", field: name} if field == "display_name" else {"username": name}

    assert refused(field, **names) == ["This name is reserved."]


@pytest.mark.parametrize("name", ["\u202eecila", "\u200b\u200b", "al\u200dice", "bob\x07"])
def test_control_and_format_characters_are_refused_in_a_display_name(name):
    assert refused("display_name", username="someone", display_name=name)


def test_ones_own_username_is_a_fine_display_name():
    user = user_create(username="alice", display_name="Alice", password=PASSWORD)

    assert user.get_display_name() == "Alice"


def test_a_profile_change_to_another_players_name_changes_nothing():
    UserFactory(username="alice")
    mallory = UserFactory(username="mallory", display_name="Mal")

    with pytest.raises(ValidationError):
        user_profile_update(
            user=mallory, display_name="\u0430lice", country="", preferred_language=""
        )
    mallory.refresh_from_db()
    assert mallory.display_name == "Mal"


def test_the_api_refuses_a_lookalike_in_the_error_shape():
    UserFactory(username="alice")

    response = APIClient().post(
        "/api/v1/auth/signup/", {"username": "\u0430lice", "password": PASSWORD}, format="json"
    )

    assert response.status_code == 400
    assert response.json()["error"]["fields"]["username"] == [
        "This name looks too much like another player's name."
    ]


def test_the_sign_up_page_refuses_a_lookalike(client):
    UserFactory(username="alice")

    response = client.post(
        "/accounts/signup/",
        {"username": "\u0430lice", "password1": PASSWORD, "password2": PASSWORD},
    )

    assert response.status_code == 400
    assert "looks too much like another player" in response.content.decode()


@given(st.text(min_size=1, max_size=30))
def test_a_name_key_is_stable_under_case_and_spacing(name):
    assert name_key(name.upper()) == name_key(name.upper().lower().upper())
    assert name_key(name + " ") == name_key(name)
