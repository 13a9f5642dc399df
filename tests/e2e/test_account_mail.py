"""Mail through a real SMTP server, followed in Chromium: an address confirmed from the
sign-up (desktop), a forgotten password reset (phone)."""

import os
import time
from collections.abc import Iterator
from typing import Any

import pytest
from aiosmtpd.controller import Controller

from tests.accounts.smtp import Inbox, free_port
from tests.e2e.conftest import Pages
from tests.e2e.live import LiveServer
from tests.factories import PASSWORD

pytestmark = pytest.mark.timeout(300)

NEW = "a brand new passphrase 42"


@pytest.fixture(scope="module")
def inbox() -> Iterator[Inbox]:
    received = Inbox()
    received.port = free_port()
    controller = Controller(received, hostname="127.0.0.1", port=received.port)
    controller.start()
    try:
        yield received
    finally:
        controller.stop()


@pytest.fixture(scope="module")
def mail_server(inbox: Inbox) -> Iterator[LiveServer]:
    """A server of its own whose mail goes to ``inbox``."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(os.environ, "EMAIL_URL", f"smtp://127.0.0.1:{inbox.port}")
        with LiveServer() as server:
            yield server


@pytest.fixture
def mail_pages(browser: Any, mail_server: LiveServer) -> Iterator[Pages]:
    opened = Pages(browser, mail_server.url)
    yield opened
    opened.close()
    assert not opened.errors, "\n".join(opened.errors)


def _wait_for_mail(inbox: Inbox, to: str) -> str:
    for _ in range(100):
        if any(m["To"] == to for m in inbox.messages):
            return inbox.link(to)
        time.sleep(0.1)
    raise AssertionError(f"no mail to {to}")


def _sign_up(page: Any, username: str, email: str) -> None:
    page.goto("/accounts/signup/")
    page.fill("input[name=username]", username)
    page.fill("input[name=email]", email)
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url(lambda url: "/signup" not in url)


def test_an_address_given_at_sign_up_is_confirmed_from_the_mailed_link(mail_pages, inbox):
    page = mail_pages.new()
    _sign_up(page, "mailer1", "mailer1@example.com")

    page.goto(_wait_for_mail(inbox, "mailer1@example.com"))
    page.click("main form button[type=submit]")

    page.wait_for_selector(".messages")
    assert "Your address is confirmed." in page.inner_text("main")
    assert "mailer1@example.com" in page.inner_text("main")


def test_a_forgotten_password_is_reset_from_the_mailed_link_on_a_phone(mail_pages, inbox):
    page = mail_pages.new(width=390, height=844)
    _sign_up(page, "mailer2", "mailer2@example.com")
    page.goto(_wait_for_mail(inbox, "mailer2@example.com"))
    page.click("main form button[type=submit]")
    page.goto("/accounts/logout/")
    page.click("main form button[type=submit]")

    inbox.messages.clear()
    page.goto("/accounts/password/reset/")
    page.fill("input[name=email]", "mailer2@example.com")
    page.click("main form button[type=submit]")
    page.wait_for_url("**/password/reset/sent/")
    page.goto(_wait_for_mail(inbox, "mailer2@example.com"))
    page.fill("input[name=new_password1]", NEW)
    page.fill("input[name=new_password2]", NEW)
    page.click("main form button[type=submit]")
    page.wait_for_url("**/accounts/login/")
    page.fill("input[name=username]", "mailer2")
    page.fill("input[name=password]", NEW)
    page.click("main form button[type=submit]")

    page.wait_for_url(lambda url: "/login" not in url)
    page.goto("/accounts/profile/")
    assert "Signed in as mailer2." in page.inner_text("main")
