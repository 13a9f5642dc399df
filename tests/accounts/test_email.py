import pytest
from django.urls import reverse

from accounts.models import Mail, User
from accounts.services import email_change_request
from tests.factories import PASSWORD, UserFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.integration]

BASE = "http://testserver/"


def _signup(client, **extra):
    data = {"username": "olena", "password1": PASSWORD, "password2": PASSWORD, **extra}
    return client.post(reverse("accounts:signup"), data)


def test_signing_up_with_an_address_mails_a_link_that_confirms_it(client, smtp):
    _signup(client, email="olena@example.com")
    user = User.objects.get(username="olena")
    assert (user.email, user.email_pending) == ("", "olena@example.com")

    link = smtp.link("olena@example.com")
    client.post(link)

    user.refresh_from_db()
    assert (user.email, user.email_pending) == ("olena@example.com", "")


def test_signing_up_without_an_address_sends_nothing(client, smtp):
    _signup(client)

    assert User.objects.filter(username="olena").exists()
    assert smtp.messages == []


def test_a_mail_has_text_and_html_in_the_recipients_language(client, smtp):
    user = UserFactory(preferred_language="uk")

    email_change_request(user=user, email="taras@example.com", base_url=BASE)

    message = smtp.last("taras@example.com")
    assert "Підтвердіть" in message["Subject"]
    assert "Підтвердіть" in smtp.text(message)
    assert "<a href=" in smtp.html(message)


def test_opening_the_confirmation_link_only_asks_before_confirming(client, smtp):
    user = UserFactory()
    email_change_request(user=user, email="a@example.com", base_url=BASE)

    page = client.get(smtp.link("a@example.com"))

    assert page.status_code == 200
    user.refresh_from_db()
    assert user.email == ""


def test_a_used_confirmation_link_gives_a_clear_page_and_changes_nothing(client, smtp):
    user = UserFactory()
    email_change_request(user=user, email="a@example.com", base_url=BASE)
    link = smtp.link("a@example.com")
    client.post(link)
    email_change_request(user=user, email="b@example.com", base_url=BASE)

    response = client.post(link)

    assert response.status_code == 400
    assert "already used" in response.content.decode()
    user.refresh_from_db()
    assert (user.email, user.email_pending) == ("a@example.com", "b@example.com")


def test_a_tampered_confirmation_link_gives_a_clear_page(client, smtp):
    user = UserFactory()
    email_change_request(user=user, email="a@example.com", base_url=BASE)
    link = smtp.link("a@example.com")

    response = client.post(link.replace("/confirm/", "/confirm/x"))

    assert response.status_code == 400
    assert "not valid" in response.content.decode()
    user.refresh_from_db()
    assert user.email == ""


def test_an_expired_confirmation_link_changes_nothing(client, smtp, settings):
    user = UserFactory()
    email_change_request(user=user, email="a@example.com", base_url=BASE)
    settings.ACCOUNTS_EMAIL_CONFIRM_SECONDS = -1

    response = client.post(smtp.link("a@example.com"))

    assert response.status_code == 400
    assert "expired" in response.content.decode()


def test_a_confirmation_link_for_another_account_changes_nothing(client, smtp):
    owner, other = UserFactory(), UserFactory()
    email_change_request(user=owner, email="a@example.com", base_url=BASE)
    client.force_login(other)

    response = client.post(smtp.link("a@example.com"))

    assert response.status_code == 400
    owner.refresh_from_db()
    assert owner.email == ""


def test_changing_the_address_tells_the_old_one(client, smtp):
    user = UserFactory()
    email_change_request(user=user, email="old@example.com", base_url=BASE)
    client.post(smtp.link("old@example.com"))
    client.force_login(user)

    client.post(reverse("accounts:email"), {"email": "new@example.com"})
    client.post(smtp.link("new@example.com"))

    user.refresh_from_db()
    assert user.email == "new@example.com"
    assert "no longer old@example.com" in smtp.text(smtp.last("old@example.com"))


def test_an_address_another_account_has_is_refused_in_any_case(client, smtp):
    owner = UserFactory()
    email_change_request(user=owner, email="Shared@Example.com", base_url=BASE)
    client.post(smtp.link("Shared@Example.com"))
    client.force_login(UserFactory())

    response = client.post(reverse("accounts:email"), {"email": "shared@EXAMPLE.com"})

    assert response.status_code == 400
    assert "belongs to another account" in response.content.decode()


@pytest.mark.parametrize(
    "address",
    [
        "a@example.com\r\nBcc: victim@example.com",
        "a@example.com\nX: y",
        "a@example.com, b@example.com",
    ],
)
def test_an_address_with_a_header_injection_is_refused_and_nothing_is_sent(client, smtp, address):
    response = _signup(client, email=address)

    assert response.status_code == 400
    assert not User.objects.filter(username="olena").exists()
    assert Mail.objects.count() == 0


def test_a_refused_mail_is_retried_then_marked_failed_in_the_outbox(client, smtp, settings):
    settings.ACCOUNTS_MAIL_ATTEMPTS = 3
    smtp.refuse = True

    email_change_request(user=UserFactory(), email="a@example.com", base_url=BASE)

    mail = Mail.objects.get()
    assert (mail.status, mail.attempts) == (Mail.Status.FAILED, 3)
    assert "451" in mail.last_error


def test_a_mail_to_a_server_that_is_gone_is_kept_and_marked_failed(client, smtp, settings):
    settings.ACCOUNTS_MAIL_ATTEMPTS = 2
    settings.EMAIL_PORT = 1  # nothing listens there

    email_change_request(user=UserFactory(), email="a@example.com", base_url=BASE)

    mail = Mail.objects.get()
    assert (mail.status, mail.attempts, mail.to) == (Mail.Status.FAILED, 2, "a@example.com")


def test_a_sent_mail_is_marked_sent(client, smtp):
    email_change_request(user=UserFactory(), email="a@example.com", base_url=BASE)

    mail = Mail.objects.get()
    assert mail.status == Mail.Status.SENT
    assert mail.sent_at is not None


def test_the_admin_lists_failed_mail(admin_client, smtp, settings):
    settings.ACCOUNTS_MAIL_ATTEMPTS = 1
    smtp.refuse = True
    email_change_request(user=UserFactory(), email="lost@example.com", base_url=BASE)

    page = admin_client.get(reverse("admin:accounts_mail_changelist") + "?status=failed")

    assert "lost@example.com" in page.content.decode()
