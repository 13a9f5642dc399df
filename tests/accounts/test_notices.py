"""E-mail notices: chosen per kind, sent only to a confirmed address through the outbox
and a real SMTP server, in the recipient's language, with a one-click unsubscribe link
(and the RFC 8058 headers) that works without signing in."""

import pytest
from django.core import signing
from django.test import Client
from django.urls import reverse

from accounts.models import Mail, NoticeChoice, NoticeKind
from accounts.selectors import notices_chosen
from accounts.services import (
    account_data_export,
    account_erase,
    email_change_request,
    notice_queue,
    notices_choose,
)
from accounts.services.notices import UNSUBSCRIBE_SALT, notice_unsubscribe_token
from tests.accounts.helpers import BASE, user_with_address
from tests.factories import PASSWORD, UserFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.integration]

REMINDER = NoticeKind.TOURNAMENT_REMINDER
CHALLENGE = NoticeKind.CHALLENGE


def _notice(user, kind=REMINDER, subject="Spring cup", body="Check-in is open.", link="/t/1/"):
    return notice_queue(user=user, kind=kind, subject=subject, body=body, link=link)


def _chosen(*kinds, email="olena@example.com", **fields):
    user = user_with_address(email, **fields)
    notices_choose(user=user, kinds=kinds)
    return user


def _unsubscribe_path(message) -> str:
    value = message["List-Unsubscribe"]
    assert value.startswith("<") and value.endswith(">")
    return "/" + value[1:-1].split("://", 1)[1].split("/", 1)[1]


# ------------------------------------------------------------------ who gets one


def test_a_notice_of_a_chosen_kind_reaches_a_confirmed_address_through_smtp(smtp):
    user = _chosen(REMINDER)

    mail = _notice(user)

    message = smtp.last("olena@example.com")
    assert message["Subject"] == "Spring cup"
    assert "Check-in is open." in smtp.text(message)
    assert "http://127.0.0.1:8000/t/1/" in smtp.text(message)
    assert "Check-in is open." in smtp.html(message)
    assert Mail.objects.get(pk=mail.pk).status == Mail.Status.SENT


def test_no_notice_of_a_kind_not_chosen(smtp):
    user = _chosen(CHALLENGE)
    smtp.messages.clear()

    assert _notice(user, kind=REMINDER) is None

    assert smtp.messages == []
    assert not Mail.objects.filter(kind=REMINDER).exists()


def test_nothing_is_sent_to_an_address_awaiting_confirmation(smtp):
    user = UserFactory()
    notices_choose(user=user, kinds=[REMINDER])
    email_change_request(user=user, email="pending@example.com", base_url=BASE)
    smtp.messages.clear()

    assert _notice(user) is None

    assert smtp.messages == []
    assert not Mail.objects.filter(kind=REMINDER).exists()


def test_a_closed_account_gets_no_notice(client, smtp):
    user = _chosen(REMINDER)
    client.force_login(user)
    client.post(reverse("accounts:close"), {"password": PASSWORD})
    smtp.messages.clear()

    assert _notice(user) is None
    assert smtp.messages == []


def test_a_notice_is_in_the_recipients_language_text_and_html(smtp):
    user = _chosen(REMINDER, preferred_language="ru")

    _notice(user, body=lambda: str(NoticeKind(REMINDER).label))

    message = smtp.last("olena@example.com")
    assert "Здравствуйте" in smtp.text(message)
    assert "Турниры" in smtp.text(message)
    assert "Турниры" in smtp.html(message)


def test_an_unknown_kind_is_a_programming_error():
    user = UserFactory()
    with pytest.raises(ValueError, match="unknown notice kind"):
        notice_queue(user=user, kind="gossip", subject="x", body="y")


def test_a_line_break_in_a_subject_adds_no_header(smtp):
    user = _chosen(REMINDER)

    _notice(user, subject="Cup\r\nBcc: victim@example.com")

    message = smtp.last("olena@example.com")
    assert message["Bcc"] is None
    assert message["Subject"] == "Cup Bcc: victim@example.com"
    assert [m["To"] for m in smtp.messages if m["Subject"].startswith("Cup")] == [
        "olena@example.com"
    ]


# ------------------------------------------------------------------ unsubscribing


def test_every_notice_carries_the_one_click_unsubscribe_headers(smtp):
    user = _chosen(REMINDER)

    _notice(user)

    message = smtp.last("olena@example.com")
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    path = _unsubscribe_path(message)
    assert path.startswith("/accounts/notices/off/")
    assert path in smtp.text(message)
    assert path in smtp.html(message)


def test_opening_the_unsubscribe_link_only_asks(smtp):
    user = _chosen(REMINDER)
    _notice(user)

    page = Client().get(_unsubscribe_path(smtp.last("olena@example.com")))

    assert page.status_code == 200
    assert notices_chosen(user=user) == [REMINDER]


def test_a_mail_programs_one_click_post_turns_that_kind_off_without_sign_in(smtp):
    user = _chosen(REMINDER, CHALLENGE)
    _notice(user)
    path = _unsubscribe_path(smtp.last("olena@example.com"))

    answer = Client(enforce_csrf_checks=True).post(
        path, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded"
    )

    assert answer.status_code == 200
    assert notices_chosen(user=user) == [CHALLENGE]


def test_the_pages_button_turns_the_kind_off_and_then_nothing_more_is_sent(smtp):
    user = _chosen(REMINDER)
    _notice(user)

    page = Client().post(_unsubscribe_path(smtp.last("olena@example.com")))
    smtp.messages.clear()

    assert "no more mail of this kind" in page.content.decode()
    assert _notice(user) is None
    assert smtp.messages == []


@pytest.mark.parametrize(
    "forge",
    [
        lambda token: token[:-2] + ("AA" if not token.endswith("AA") else "BB"),
        lambda token: signing.dumps({"u": 1, "k": "challenge"}, salt="another.salt"),
        lambda token: signing.dumps({"u": "1", "k": "gossip"}, salt=UNSUBSCRIBE_SALT),
        lambda token: "nonsense",
    ],
    ids=["tampered", "other-salt", "bad-fields", "nonsense"],
)
def test_a_forged_unsubscribe_link_gives_a_clear_page_and_changes_nothing(forge):
    user = _chosen(REMINDER, CHALLENGE)
    token = forge(notice_unsubscribe_token(user=user, kind=REMINDER))

    page = Client().post(reverse("accounts:notice_unsubscribe", args=[token]))

    assert page.status_code == 400
    assert "not valid" in page.content.decode()
    assert notices_chosen(user=user) == [REMINDER, CHALLENGE]


def test_an_unsubscribe_link_touches_only_its_own_account():
    mine = _chosen(REMINDER)
    other = _chosen(REMINDER, email="other@example.com")

    Client().post(
        reverse(
            "accounts:notice_unsubscribe", args=[notice_unsubscribe_token(user=mine, kind=REMINDER)]
        )
    )

    assert notices_chosen(user=mine) == []
    assert notices_chosen(user=other) == [REMINDER]


# ------------------------------------------------------------------ choosing


def test_the_notices_page_saves_the_kinds_ticked(client):
    user = user_with_address("olena@example.com")
    client.force_login(user)

    page = client.get(reverse("accounts:notices"))
    assert "olena@example.com" in page.content.decode()
    client.post(reverse("accounts:notices"), {"notices": [REMINDER, CHALLENGE]})
    assert notices_chosen(user=user) == [REMINDER, CHALLENGE]

    client.post(reverse("accounts:notices"), {"notices": [CHALLENGE]})
    assert notices_chosen(user=user) == [CHALLENGE]


def test_the_notices_page_refuses_an_unknown_kind_and_changes_nothing(client):
    user = _chosen(CHALLENGE)
    client.force_login(user)

    page = client.post(reverse("accounts:notices"), {"notices": [REMINDER, "gossip"]})

    assert page.status_code == 400
    assert notices_chosen(user=user) == [CHALLENGE]


def test_the_notices_page_says_nothing_is_sent_without_a_confirmed_address(client):
    client.force_login(UserFactory())

    page = client.get(reverse("accounts:notices")).content.decode()

    assert "no notice is mailed until you confirm one" in page
    assert reverse("accounts:email") in page


def test_the_api_reads_and_replaces_the_kinds_chosen(client):
    user = _chosen(CHALLENGE)
    client.force_login(user)

    assert client.get("/api/v1/me/").json()["email_notices"] == [CHALLENGE]
    answer = client.patch(
        "/api/v1/me/", {"email_notices": [REMINDER]}, content_type="application/json"
    )

    assert answer.status_code == 200
    assert answer.json()["email_notices"] == [REMINDER]
    assert notices_chosen(user=user) == [REMINDER]


def test_the_api_refuses_an_unknown_kind_and_changes_nothing(client):
    user = _chosen(CHALLENGE)
    client.force_login(user)

    answer = client.patch(
        "/api/v1/me/",
        {"email_notices": ["gossip"], "display_name": "Changed"},
        content_type="application/json",
    )

    assert answer.status_code == 400
    user.refresh_from_db()
    assert user.display_name != "Changed"
    assert notices_chosen(user=user) == [CHALLENGE]


def test_the_data_download_names_the_notices_and_erasing_forgets_them():
    user = _chosen(REMINDER)

    assert account_data_export(user=user)["email_notices"] == [REMINDER]
    account_erase(user=user)
    assert not NoticeChoice.objects.filter(user=user).exists()
