import pytest
from django.core.exceptions import ValidationError

from accounts.models import User
from accounts.services import (
    token_get_or_create,
    token_revoke,
    user_create,
    user_language_update,
    user_profile_update,
)
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


def test_user_create_stores_a_hashed_password():
    user = user_create(username="olena", password=PASSWORD, display_name="  Олена ")

    assert user.display_name == "Олена"
    assert user.password != PASSWORD
    assert user.check_password(PASSWORD)


def test_user_create_refuses_a_weak_password_and_creates_nothing():
    with pytest.raises(ValidationError, match="too common"):
        user_create(username="olena", password="qwerty123")

    assert not User.objects.exists()


def test_user_create_refuses_a_password_like_the_username():
    with pytest.raises(ValidationError, match="too similar"):
        user_create(username="olenakowalska", password="olenakowalska1")


def test_user_create_refuses_a_name_taken_in_another_case():
    UserFactory(username="Olena")

    with pytest.raises(ValidationError):
        user_create(username="OLENA", password=PASSWORD)

    assert User.objects.count() == 1


def test_user_profile_update_refuses_an_unknown_language_and_keeps_the_row():
    user = UserFactory(preferred_language="en")

    with pytest.raises(ValidationError):
        user_profile_update(user=user, display_name="x", country="", preferred_language="xx")

    user.refresh_from_db()
    assert user.preferred_language == "en"


def test_a_player_is_found_by_username_in_any_case():
    user = UserFactory(username="Olena")

    assert User.objects.get_by_natural_key("oLENA") == user


def test_user_language_update_refuses_an_unknown_language_and_keeps_the_row():
    user = UserFactory(preferred_language="ru")

    with pytest.raises(ValidationError):
        user_language_update(user=user, language="xx")

    user.refresh_from_db()
    assert user.preferred_language == "ru"


def test_a_whole_save_of_an_account_read_before_a_revocation_does_not_undo_it() -> None:
    """What an open websocket checks (core.ws_guard): a form or the admin that saves the
    whole account, read before its token was revoked, must not write the old generation
    back."""
    user = UserFactory()
    token_get_or_create(user=user)
    read_before = User.objects.get(pk=user.pk)
    token_revoke(user=user)

    read_before.display_name = "Renamed"
    read_before.save()

    assert User.objects.get(pk=user.pk).credential_generation == 1
