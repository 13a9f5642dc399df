import pytest
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token

from accounts.models import Mail
from accounts.services import token_get_or_create
from tests.accounts.helpers import mailed_link, user_with_address
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

NEW = "a brand new passphrase 42"


def _ask(client, email):
    return client.post(reverse("accounts:password_reset"), {"email": email})


def _choose(client, link, password=NEW):
    form = client.get(link, follow=True)
    return client.post(
        form.redirect_chain[-1][0] if form.redirect_chain else link,
        {"new_password1": password, "new_password2": password},
    )


def _signs_in(client, user, password):
    """Whether a new browser signs in to ``user`` with ``password``."""
    response = Client().post(
        reverse("accounts:login"), {"username": user.username, "password": password}
    )
    return response.status_code == 302


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_a_reset_through_real_mail_sets_the_new_password(client, smtp):
    user = user_with_address("olena@example.com")

    _ask(client, "OLENA@example.com")
    response = _choose(client, smtp.link("olena@example.com"))

    assert response.status_code == 302
    assert response.url == reverse("accounts:login")
    assert _signs_in(client, user, NEW)
    assert not _signs_in(client, user, PASSWORD)


def test_the_answer_is_the_same_whether_the_address_exists_or_not(client):
    user_with_address("known@example.com")
    sent_before = Mail.objects.count()

    known = _ask(client, "known@example.com")
    unknown = _ask(client, "nobody@example.com")

    assert (known.status_code, known.url) == (unknown.status_code, unknown.url)
    assert Mail.objects.count() == sent_before + 1


def test_an_unconfirmed_address_gets_no_reset_mail(client):
    from accounts.services import email_change_request

    email_change_request(user=UserFactory(), email="pending@example.com", base_url="http://x/")

    _ask(client, "pending@example.com")

    assert Mail.objects.filter(kind="password_reset").count() == 0


def test_a_used_reset_link_gives_a_clear_page_and_changes_nothing(client):
    user = user_with_address("a@example.com")
    _ask(client, "a@example.com")
    link = mailed_link("a@example.com")
    _choose(client, link)

    response = _choose(client, link, password="yet another passphrase 7")

    assert response.status_code == 200
    assert "cannot be used" in response.content.decode()
    assert _signs_in(client, user, NEW)


def test_a_tampered_reset_link_gives_a_clear_page_and_changes_nothing(client):
    user = user_with_address("a@example.com")
    _ask(client, "a@example.com")
    link = mailed_link("a@example.com")

    response = _choose(client, link[:-3] + "xyz/")

    assert "cannot be used" in response.content.decode()
    assert _signs_in(client, user, PASSWORD)


def test_a_reset_link_for_another_account_changes_nothing(client):
    victim = user_with_address("v@example.com")
    user_with_address("me@example.com")
    _ask(client, "me@example.com")
    mine = mailed_link("me@example.com").split("/")
    _ask(client, "v@example.com")
    theirs = mailed_link("v@example.com").split("/")
    crossed = "/".join([*theirs[:-3], theirs[-3], mine[-2], ""])

    response = _choose(client, crossed)

    assert "cannot be used" in response.content.decode()
    assert _signs_in(client, victim, PASSWORD)


def test_an_expired_reset_link_changes_nothing(client, settings):
    user = user_with_address("a@example.com")
    _ask(client, "a@example.com")
    settings.PASSWORD_RESET_TIMEOUT = -1

    response = _choose(client, mailed_link("a@example.com"))

    assert "cannot be used" in response.content.decode()
    assert _signs_in(client, user, PASSWORD)


def test_a_reset_signs_out_every_browser_and_revokes_the_api_token(client):
    user = user_with_address("a@example.com")
    elsewhere = Client()
    elsewhere.post(reverse("accounts:login"), {"username": user.username, "password": PASSWORD})
    token_get_or_create(user=user)
    generation = user.credential_generation

    _ask(client, "a@example.com")
    _choose(client, mailed_link("a@example.com"))

    assert not elsewhere.get(reverse("home")).context["user"].is_authenticated
    assert not Token.objects.filter(user=user).exists()
    signed_in = [s for s in Session.objects.all() if s.get_decoded().get("_auth_user_id")]
    assert signed_in == []
    user.refresh_from_db()
    assert user.credential_generation > generation


def test_reset_mails_for_one_address_are_throttled(client, settings):
    settings.ACCOUNTS_RESETS_PER_HOUR = 2
    user_with_address("a@example.com")

    for _ in range(4):
        response = _ask(client, "a@example.com")

    assert response.url == reverse("accounts:password_reset_sent")
    assert Mail.objects.filter(kind="password_reset").count() == 2


def test_one_throttled_address_leaves_another_accounts_resets_alone(client, settings):
    settings.ACCOUNTS_RESETS_PER_HOUR = 1
    user_with_address("a@example.com")
    user_with_address("b@example.com")

    _ask(client, "a@example.com")
    _ask(client, "a@example.com")
    _ask(client, "b@example.com")

    assert Mail.objects.filter(kind="password_reset", to="b@example.com").count() == 1
