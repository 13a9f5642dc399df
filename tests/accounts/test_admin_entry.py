"""Who uses the admin needs a confirmed address and a second factor (ACCOUNTS_ADMIN_OTP):
staff, and a club's organisers, whom the clubs app lets in. The admin's sign-in asks
for the code, and its page says what is missing."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.accounts.test_two_factor import code, with_two_factor
from tests.clubs.helpers import club, member
from tests.factories import PASSWORD, UserFactory

pytestmark = [pytest.mark.django_db]


@pytest.fixture(autouse=True)
def admin_otp(settings):
    settings.ACCOUNTS_ADMIN_OTP = True


def _address(user, email):
    """A confirmed address, as the mailed link leaves it."""
    user.email = email
    user.save(update_fields=["email"])
    return user


def _admin_sign_in(client, user, otp_token):
    return client.post(
        reverse("admin:login"),
        {"username": user.username, "password": PASSWORD, "otp_token": otp_token},
    )


def _site_sign_in(client, user, device):
    client.post(reverse("accounts:login"), {"username": user.username, "password": PASSWORD})
    client.post(reverse("accounts:login_code"), {"code": code(device, 1)})


def _organiser(**fields):
    """A member with a club's events right, whom the clubs app lets into the admin."""
    user, device, _codes = with_two_factor(**fields)
    member(club(), rights={"events"}, user=user)
    return user, device


def _enters(client):
    return client.get(reverse("admin:index")).status_code == 200


def test_staff_with_a_code_but_no_confirmed_address_is_kept_out_and_told_why():
    staff, device, _codes = with_two_factor(is_staff=True, is_superuser=True)
    client = Client()
    _admin_sign_in(client, staff, code(device, 1))

    assert not _enters(client)
    page = client.get(reverse("admin:login")).content.decode()
    assert "confirmed e-mail address and two-factor sign-in" in page
    assert reverse("accounts:email") in page


def test_staff_with_an_address_and_a_code_enters():
    staff, device, _codes = with_two_factor(is_staff=True, is_superuser=True)
    _address(staff, "boss@example.com")
    client = Client()

    _admin_sign_in(client, staff, code(device, 1))

    assert _enters(client)


def test_the_admin_sign_in_page_asks_for_the_code():
    page = Client().get(reverse("admin:login")).content.decode()

    assert 'name="otp_token"' in page
    assert 'autocomplete="one-time-code"' in page


def test_a_club_organiser_with_an_address_signed_in_with_a_code_enters():
    user, device = _organiser()
    _address(user, "org@example.com")
    client = Client()

    _site_sign_in(client, user, device)

    assert _enters(client)


def test_a_club_organiser_signs_in_at_the_admins_own_page_with_a_code():
    user, device = _organiser()
    _address(user, "org@example.com")
    client = Client()

    _admin_sign_in(client, user, code(device, 1))

    assert _enters(client)


def test_a_club_organiser_without_two_factor_is_kept_out_and_sent_to_set_it_up():
    user = _address(UserFactory(), "org@example.com")
    member(club(), rights={"events"}, user=user)
    client = Client()
    client.force_login(user)

    assert not _enters(client)
    page = client.get(reverse("admin:login")).content.decode()
    assert reverse("accounts:two_factor") in page
    assert reverse("accounts:email") not in page


def test_a_club_organiser_without_a_confirmed_address_is_kept_out():
    user, device = _organiser()
    client = Client()
    _site_sign_in(client, user, device)

    assert not _enters(client)
    assert reverse("accounts:email") in client.get(reverse("admin:login")).content.decode()


def test_a_club_organiser_signed_in_without_the_code_is_asked_to_sign_in_again():
    user, _device = _organiser()
    _address(user, "org@example.com")
    client = Client()
    client.force_login(user)  # a session from before two-factor sign-in was turned on

    assert not _enters(client)
    assert "Sign in again below" in client.get(reverse("admin:login")).content.decode()


def test_a_club_member_without_an_admin_right_is_not_let_in_by_a_code_and_an_address():
    user, device, _codes = with_two_factor()
    _address(user, "member@example.com")
    # settings, members and roles are worked on the club's page, not in the admin
    member(club(), rights={"settings", "members", "roles"}, user=user)
    client = Client()

    _admin_sign_in(client, user, code(device, 1))

    assert not _enters(client)
    page = client.get(reverse("admin:login")).content.decode()
    assert "not authorized" in page
    assert "confirmed e-mail address and two-factor" not in page


def test_the_admin_sign_in_refuses_a_wrong_code_and_signs_nobody_in():
    user, _device = _organiser()
    _address(user, "org@example.com")
    client = Client()

    page = _admin_sign_in(client, user, "12345")  # five digits: never a code

    assert page.status_code == 200
    assert "_auth_user_id" not in client.session
    assert not _enters(client)
