import json
from datetime import timedelta

import pytest
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import SignIn, User
from accounts.services import account_close, accounts_closed_erase, token_get_or_create
from tests.accounts.helpers import user_with_address
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0"
PHONE = "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/120.0 Mobile Safari/537.36"


def _browser(user, agent):
    browser = Client(HTTP_USER_AGENT=agent)
    browser.post(reverse("accounts:login"), {"username": user.username, "password": PASSWORD})
    return browser


def _signed_in(browser):
    return browser.get(reverse("home")).context["user"].is_authenticated


def test_the_sessions_page_lists_each_browser_with_its_device():
    user = UserFactory()
    laptop = _browser(user, FIREFOX)
    _browser(user, PHONE)

    page = laptop.get(reverse("accounts:sessions")).content.decode()

    assert "Firefox, Linux" in page
    assert "Chrome, Android" in page
    assert "This browser" in page


def test_signing_one_browser_out_leaves_the_others():
    user = UserFactory()
    laptop, phone = _browser(user, FIREFOX), _browser(user, PHONE)
    phone_signin = SignIn.objects.get(user=user, user_agent=PHONE)

    laptop.post(reverse("accounts:sessions"), {"action": "one", "signin": phone_signin.pk})

    assert not _signed_in(phone)
    assert _signed_in(laptop)


def test_one_cannot_sign_out_another_accounts_browser():
    victim, attacker = UserFactory(), UserFactory()
    victims = _browser(victim, PHONE)
    signin = SignIn.objects.get(user=victim)

    _browser(attacker, FIREFOX).post(
        reverse("accounts:sessions"), {"action": "one", "signin": signin.pk}
    )

    assert _signed_in(victims)


def test_signing_out_everywhere_else_keeps_this_browser():
    user = UserFactory()
    laptop, phone = _browser(user, FIREFOX), _browser(user, PHONE)

    laptop.post(reverse("accounts:sessions"), {"action": "others"})

    assert _signed_in(laptop)
    assert not _signed_in(phone)


def test_the_sessions_page_revokes_the_api_token():
    user = UserFactory()
    token = token_get_or_create(user=user)
    laptop = _browser(user, FIREFOX)

    laptop.post(reverse("accounts:sessions"), {"action": "token"})

    api = Client(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert api.get("/api/v1/me/").status_code == 401


def test_the_data_download_is_json_with_the_profile_and_sign_ins():
    user = user_with_address("me@example.com", display_name="Мирон")
    laptop = _browser(user, FIREFOX)

    response = laptop.get(reverse("accounts:data"))

    assert response["Content-Disposition"].startswith("attachment")
    data = json.loads(response.content)
    assert data["profile"]["display_name"] == "Мирон"
    assert data["profile"]["email"] == "me@example.com"
    assert data["sign_ins"][0]["device"] == FIREFOX
    assert {"matches", "ratings", "chat"} <= data.keys()


def test_closing_needs_the_password():
    user = UserFactory()
    laptop = _browser(user, FIREFOX)

    response = laptop.post(reverse("accounts:close"), {"password": "wrong"})

    assert response.status_code == 400
    user.refresh_from_db()
    assert user.closed_at is None


def test_closing_signs_out_everywhere_and_stops_sign_in():
    user = UserFactory()
    laptop, phone = _browser(user, FIREFOX), _browser(user, PHONE)

    laptop.post(reverse("accounts:close"), {"password": PASSWORD})

    assert not _signed_in(phone)
    assert not _signed_in(_browser(user, FIREFOX))


def test_a_closed_account_is_kept_during_the_grace_period(settings):
    user = user_with_address("me@example.com", username="keeper")
    account_close(user=user, password=PASSWORD)

    erased = accounts_closed_erase(grace_seconds=3600)

    user.refresh_from_db()
    assert erased == 0
    assert (user.username, user.email) == ("keeper", "me@example.com")


def test_after_the_grace_period_the_name_and_address_are_erased():
    user = user_with_address("me@example.com", username="leaver", display_name="Leaver")
    account_close(user=user, password=PASSWORD)
    User.objects.filter(pk=user.pk).update(closed_at=timezone.now() - timedelta(days=30))

    erased = accounts_closed_erase(grace_seconds=3600)

    user.refresh_from_db()
    assert erased == 1
    assert user.username == f"closed-{user.pk}"
    assert (user.display_name, user.email, user.email_pending) == ("", "", "")
    assert not user.has_usable_password()
    assert not Session.objects.filter(session_key__in=SignIn.objects.values("session_key"))


def test_erasing_removes_chat_lines_and_keeps_the_seat_in_the_match():
    from games.models import Seat
    from social import services as social
    from social.models import ChatMessage
    from tests.games.helpers import started_table

    table, (leaver, other) = started_table(humans=2, bots=1)
    social.chat_say(user=leaver, table_id=table.pk, text="good game")
    social.chat_say(user=other, table_id=table.pk, text="thanks")
    account_close(user=leaver, password=PASSWORD)
    User.objects.filter(pk=leaver.pk).update(closed_at=timezone.now() - timedelta(days=30))

    accounts_closed_erase(grace_seconds=3600)

    assert list(ChatMessage.objects.values_list("text", flat=True)) == ["thanks"]
    assert Seat.objects.filter(table=table, user=leaver).exists()


def test_a_browser_coming_back_later_moves_its_last_seen():
    from accounts.sessions import SEEN_KEY

    user = UserFactory()
    laptop = _browser(user, FIREFOX)
    long_ago = timezone.now() - timedelta(days=2)
    SignIn.objects.filter(user=user).update(last_seen=long_ago)
    session = laptop.session
    session[SEEN_KEY] = 0.0
    session.save()

    laptop.get(reverse("home"))

    assert SignIn.objects.get(user=user).last_seen > long_ago
