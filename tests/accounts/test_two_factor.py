import html
import time

import pytest
from django.test import Client
from django.urls import reverse
from django_otp.oath import TOTP
from django_otp.plugins.otp_totp.models import TOTPDevice

from accounts.services import otp_enabled, totp_begin, totp_confirm
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


def code(device: TOTPDevice, steps_ahead: int = 0) -> str:
    """The code the authenticator app shows, ``steps_ahead`` time steps from now."""
    totp = TOTP(device.bin_key, device.step, device.t0, device.digits, device.drift)
    totp.time = time.time() + steps_ahead * device.step
    return f"{totp.token():0{device.digits}d}"


def with_two_factor(**fields):
    user = UserFactory(**fields)
    device = totp_begin(user=user)
    device, codes = totp_confirm(user=user, device_id=device.pk, code=code(device))
    return user, device, codes


def _password(client, user, next_url=""):
    data = {"username": user.username, "password": PASSWORD}
    url = reverse("accounts:login") + (f"?next={next_url}" if next_url else "")
    if next_url:
        data["next"] = next_url
    return client.post(url, data)


def _code(client, value):
    return client.post(reverse("accounts:login_code"), {"code": value})


def _signed_in(client):
    return client.get(reverse("home")).context["user"].is_authenticated


def test_the_password_alone_does_not_sign_in_an_account_with_two_factor(client):
    user, _device, _codes = with_two_factor()

    response = _password(client, user)

    assert response.url == reverse("accounts:login_code")
    assert not _signed_in(client)


def test_the_right_code_after_the_password_signs_in(client):
    user, device, _codes = with_two_factor()
    _password(client, user)

    response = _code(client, code(device, 1))

    assert response.status_code == 302
    assert _signed_in(client)


def test_a_wrong_code_is_refused(client):
    user, device, _codes = with_two_factor()
    _password(client, user)

    response = _code(client, "000000" if code(device, 1) != "000000" else "111111")

    assert response.status_code == 400
    assert not _signed_in(client)


def test_a_code_already_used_in_its_time_step_is_refused(client):
    user, device, _codes = with_two_factor()
    used = code(device, 1)
    _password(client, user)
    _code(client, used)
    other = Client()
    _password(other, user)

    response = _code(other, used)

    assert response.status_code == 400
    assert not _signed_in(other)


def test_a_recovery_code_signs_in_once(client):
    user, _device, codes = with_two_factor()
    _password(client, user)
    _code(client, codes[0])
    other = Client()
    _password(other, user)

    response = _code(other, codes[0])

    assert _signed_in(client)
    assert response.status_code == 400
    assert not _signed_in(other)


def test_the_next_address_after_the_code_stays_on_the_site(client):
    user, device, _codes = with_two_factor()
    _password(client, user, next_url="https://evil.example/steal")

    response = _code(client, code(device, 1))

    assert response.url == reverse("home")


def test_the_next_address_on_the_site_is_followed_after_the_code(client):
    user, device, _codes = with_two_factor()
    _password(client, user, next_url="/accounts/profile/")

    response = _code(client, code(device, 1))

    assert response.url == "/accounts/profile/"


def test_setting_up_shows_the_key_as_a_qr_code_drawn_on_the_server(client):
    user = UserFactory()
    client.force_login(user)

    page = client.post(reverse("accounts:two_factor"), {"action": "begin"}).content.decode()

    device = TOTPDevice.objects.get(user=user)
    svg = page.split('class="otp-qr"', 1)[1].split("</svg>", 1)[0]
    assert "<path" in svg and "QR code of the key" in svg
    assert html.escape(device.config_url) in page  # the same key, as a link and in letters
    assert "http" not in svg.replace("http://www.w3.org/2000/svg", "")  # nothing fetched


def test_setting_up_needs_a_right_code_from_the_new_key(client):
    user = UserFactory()
    client.force_login(user)
    client.post(reverse("accounts:two_factor"), {"action": "begin"})
    device = TOTPDevice.objects.get(user=user)

    wrong = client.post(
        reverse("accounts:two_factor"),
        {"action": "confirm", "device": device.pk, "code": "12345x"},
    )
    right = client.post(
        reverse("accounts:two_factor"),
        {"action": "confirm", "device": device.pk, "code": code(device)},
    )

    assert wrong.status_code == 400
    assert right.status_code == 200
    assert "Recovery codes" in right.content.decode()
    assert otp_enabled(user=user)


def test_turning_two_factor_off_needs_a_code(client):
    user, device, _codes = with_two_factor()
    client.force_login(user)

    refused = client.post(reverse("accounts:two_factor"), {"action": "disable", "code": "x"})
    assert otp_enabled(user=user)
    client.post(reverse("accounts:two_factor"), {"action": "disable", "code": code(device, 1)})

    assert refused.status_code == 400
    assert not otp_enabled(user=user)


# ------------------------------------------------------------------ the admin


@pytest.fixture
def admin_otp(settings):
    settings.ACCOUNTS_ADMIN_OTP = True


def _admin_sign_in(client, user, otp_token=""):
    return client.post(
        reverse("admin:login"),
        {"username": user.username, "password": PASSWORD, "otp_token": otp_token},
    )


@pytest.mark.usefixtures("admin_otp")
def test_staff_signed_in_without_a_second_factor_cannot_use_the_admin(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))

    response = client.get(reverse("admin:index"))

    assert response.status_code == 302
    assert response.url.startswith(reverse("admin:login"))


@pytest.mark.usefixtures("admin_otp")
def test_the_admin_sign_in_refuses_staff_without_a_code(client):
    staff = UserFactory(is_staff=True, is_superuser=True)

    response = _admin_sign_in(client, staff)

    assert response.status_code == 200
    assert "two-factor" in response.content.decode()
    assert client.get(reverse("admin:index")).status_code == 302


@pytest.mark.usefixtures("admin_otp")
def test_the_admin_sign_in_with_a_code_opens_the_admin(client):
    staff, device, _codes = with_two_factor(
        is_staff=True, is_superuser=True, email="staff@example.com"
    )

    _admin_sign_in(client, staff, code(device, 1))

    assert client.get(reverse("admin:index")).status_code == 200


@pytest.mark.usefixtures("admin_otp")
def test_staff_signed_in_on_the_site_with_a_code_can_use_the_admin(client):
    staff, device, _codes = with_two_factor(
        is_staff=True, is_superuser=True, email="staff@example.com"
    )
    _password(client, staff)
    _code(client, code(device, 1))

    assert client.get(reverse("admin:index")).status_code == 200


@pytest.mark.parametrize(
    "target", ["//evil.example/x", "javascript:alert(1)", "http://evil.example/"]
)
def test_no_next_address_leads_off_the_site_after_the_code(client, target):
    user, device, _codes = with_two_factor()
    _password(client, user, next_url=target)

    response = _code(client, code(device, 1))

    assert response.url == reverse("home")


# ------------------------------------------------------------------ the token API


def _token(client, user, **extra):
    data = {"username": user.username, "password": PASSWORD, **extra}
    return client.post("/api/v1/auth/token/", data, content_type="application/json")


def test_the_token_api_gives_no_token_for_the_password_alone_when_two_factor_is_on(client):
    user, _device, _codes = with_two_factor()

    response = _token(client, user)

    assert response.status_code == 400
    assert "token" not in response.json()


def test_the_token_api_gives_a_token_for_the_password_and_a_code(client):
    user, device, _codes = with_two_factor()

    response = _token(client, user, otp=code(device, 1))

    assert response.status_code == 200
    assert response.json()["token"]
