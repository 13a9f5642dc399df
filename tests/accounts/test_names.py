"""Names that impersonate are refused: control and format
characters, reserved words, and names that look like another player's."""

import pytest
from django.core.exceptions import ValidationError
from hypothesis import given
from hypothesis import strategies as st
from rest_framework.test import APIClient

from accounts.names import INVISIBLE, name_key, refused_character
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


# ------------------------------------------------ invisible characters

# Every character the regex package counts as Default_Ignorable_Code_Point, and the blank
# symbols: what a reader cannot see.
INVISIBLES = [chr(c) for c in range(0x110000) if INVISIBLE.match(chr(c))]
LETTERS = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789", min_size=1, max_size=12)


def test_the_invisible_characters_include_the_ones_of_the_attack_and_no_letter():
    assert {"\u3164", "\u034f", "\ufe0f", "\u2800", "\u200b", "\u115f", "\uffa0"} <= set(INVISIBLES)
    assert not any(c.isalnum() and c.isascii() for c in INVISIBLES)


@st.composite
def with_invisibles(draw: st.DrawFn) -> tuple[str, str]:
    """A name, and the same name with invisible characters put anywhere in it."""
    name = draw(LETTERS)
    chars = list(name)
    for _ in range(draw(st.integers(1, 3))):
        chars.insert(draw(st.integers(0, len(chars))), draw(st.sampled_from(INVISIBLES)))
    return name, "".join(chars)


@given(with_invisibles())
def test_a_name_with_invisible_characters_is_refused_and_looks_like_the_name_without(pair):
    name, disguised = pair

    assert refused_character(disguised) is not None
    assert refused_character(name) is None
    assert name_key(disguised) == name_key(name)


def test_a_username_with_a_hangul_filler_beside_an_existing_one_is_refused():
    user_create(username="alice", password=PASSWORD)

    assert refused("username", username="alice\u3164") == [
        "A name may not contain control or invisible formatting characters."
    ]


@pytest.mark.parametrize("name", ["Ali\u034fce", "Alice\ufe0f", "\u2800\u2800", "Bob\u2800"])
def test_display_names_with_invisible_characters_are_refused(name):
    assert refused("display_name", username="someone", display_name=name)


def test_a_name_that_has_an_invisible_character_from_before_still_clashes():
    UserFactory(username="alice\u3164")  # named before such characters were refused

    assert refused("username", username="alice") == [
        "This name looks too much like another player's name."
    ]


# ------------------------------------------------ names of combining marks only

MARKS_ONLY = ["\u0301" * 6, "\u20dd" * 2, "\u0301 \u20dd"]
NO_BASE = "A name needs at least one letter, digit or symbol."


@pytest.mark.parametrize("name", MARKS_ONLY)
def test_a_display_name_of_combining_marks_only_is_refused(name):
    assert refused("display_name", username="someone", display_name=name) == [NO_BASE]


@pytest.mark.parametrize("name", ["e\u0301", "\u2660\u20dd", "7\u0301"])
def test_a_mark_on_a_letter_digit_or_symbol_is_a_fine_name(name):
    assert user_create(username="someone", display_name=name, password=PASSWORD)


def test_the_sign_up_page_refuses_a_name_of_combining_marks_only(client):
    response = client.post(
        "/accounts/signup/",
        {
            "username": "someone",
            "display_name": "\u0301" * 6,
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )

    assert NO_BASE in response.content.decode()


def test_the_api_refuses_a_display_name_of_combining_marks_only():
    user = UserFactory()
    client = APIClient()
    client.force_authenticate(user)

    response = client.patch("/api/v1/me/", {"display_name": "\u20dd" * 2}, format="json")

    assert response.json()["error"]["fields"]["display_name"] == [NO_BASE]


def test_the_admin_refuses_a_display_name_of_combining_marks_only(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))

    response = client.post(
        "/admin/accounts/user/add/",
        {
            "username": "someone",
            "usable_password": "true",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "display_name": "\u0301" * 6,
        },
    )

    assert NO_BASE in response.content.decode()


def test_an_account_named_before_the_rule_keeps_its_name_through_a_profile_change():
    user = UserFactory(display_name="Old")
    # An account named before names needed a base character (no service names one now).
    type(user).objects.filter(pk=user.pk).update(display_name="\u0301" * 6)
    user = type(user).objects.get(pk=user.pk)

    user_profile_update(
        user=user, display_name=user.display_name, country="UA", preferred_language=""
    )

    user.refresh_from_db()
    assert (user.display_name, user.country.code) == ("\u0301" * 6, "UA")
