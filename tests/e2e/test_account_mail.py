"""Mail through a real SMTP server, followed in Chromium on a desktop and a phone: an
address confirmed from the sign-up, a forgotten password reset, e-mail notices chosen
and stopped from a notice's unsubscribe link; the two-factor set-up's QR code and the
admin's sign-in asking for the code. ``SAVE_SCREENSHOTS=1`` saves the pages into
docs/screenshots/."""

import os
import time
from collections.abc import Iterator
from typing import Any

import pytest
from aiosmtpd.controller import Controller

from tests.accounts.smtp import Inbox, free_port
from tests.e2e.conftest import Pages
from tests.e2e.live import ROOT, LiveServer
from tests.e2e.screens import SCREENS
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
    server = LiveServer()
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(os.environ, "EMAIL_URL", f"smtp://127.0.0.1:{inbox.port}")
        patch.setitem(os.environ, "SITE_URL", server.url)
        with server:
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


def _shot(page: Any, name: str, screen: dict[str, int]) -> None:
    """Save the page into docs/screenshots/ when SAVE_SCREENSHOTS is set."""
    if os.environ.get("SAVE_SCREENSHOTS"):
        suffix = "-phone" if screen["width"] < 600 else ""
        page.screenshot(path=str(ROOT / "docs" / "screenshots" / f"{name}{suffix}.png"))


def _confirmed(page: Any, inbox: Inbox, username: str) -> str:
    """Sign up with an address and confirm it from the mailed link; returns it."""
    email = f"{username}@example.com"
    _sign_up(page, username, email)
    page.goto(_wait_for_mail(inbox, email))
    page.click("main form button[type=submit]")
    page.wait_for_selector(".messages")
    return email


@SCREENS
def test_an_address_given_at_sign_up_is_confirmed_from_the_mailed_link(mail_pages, inbox, screen):
    page = mail_pages.new(**screen)
    name = f"mailer1w{screen['width']}"
    _sign_up(page, name, f"{name}@example.com")

    page.goto(_wait_for_mail(inbox, f"{name}@example.com"))
    page.click("main form button[type=submit]")

    page.wait_for_selector(".messages")
    assert "Your address is confirmed." in page.inner_text("main")
    assert f"{name}@example.com" in page.inner_text("main")


@SCREENS
def test_a_forgotten_password_is_reset_from_the_mailed_link(mail_pages, inbox, screen):
    page = mail_pages.new(**screen)
    name = f"mailer2w{screen['width']}"
    email = _confirmed(page, inbox, name)
    page.goto("/accounts/logout/")
    page.click("main form button[type=submit]")

    inbox.messages.clear()
    page.goto("/accounts/password/reset/")
    page.fill("input[name=email]", email)
    page.click("main form button[type=submit]")
    page.wait_for_url("**/password/reset/sent/")
    page.goto(_wait_for_mail(inbox, email))
    page.fill("input[name=new_password1]", NEW)
    page.fill("input[name=new_password2]", NEW)
    page.click("main form button[type=submit]")
    page.wait_for_url("**/accounts/login/")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", NEW)
    page.click("main form button[type=submit]")

    page.wait_for_url(lambda url: "/login" not in url)
    page.goto("/accounts/profile/")
    assert f"Signed in as {name}." in page.inner_text("main")


def _notice_from_the_server(server: LiveServer, username: str) -> None:
    """What tournaments does when check-in opens: a notice of the reminders' kind."""
    server.manage(
        "shell",
        "-c",
        "from accounts.models import User; from accounts.services import notice_queue; "
        f"notice_queue(user=User.objects.get(username='{username}'), "
        "kind='tournament_reminder', subject='Spring cup', "
        "body='Spring cup: check-in is open. Check in to play.', link='/tournaments/')",
    )


@SCREENS
def test_notices_chosen_on_the_settings_page_are_mailed_and_stopped_from_the_mail(
    mail_pages, inbox, mail_server, screen
):
    page = mail_pages.new(**screen)
    name = f"noticed{screen['width']}"
    email = _confirmed(page, inbox, name)
    page.goto("/accounts/profile/")
    page.click("text=E-mail notices")
    page.check("input[value=tournament_reminder]")
    page.check("input[value=challenge]")
    page.click("main form button[type=submit]")
    page.wait_for_selector(".messages")
    assert page.is_checked("input[value=tournament_reminder]")
    _shot(page, "accounts-notices", screen)

    inbox.messages.clear()
    _notice_from_the_server(mail_server, name)
    _wait_for_mail(inbox, email)
    message = inbox.last(email)
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert "check-in is open" in inbox.text(message)
    stop = message["List-Unsubscribe"].strip("<>")
    assert stop.startswith(mail_server.url)

    stranger = mail_pages.new(**screen)  # another browser, not signed in
    stranger.goto(stop)
    _shot(stranger, "accounts-unsubscribe", screen)
    stranger.click("main form button[type=submit]")
    assert "no more mail of this kind" in stranger.inner_text("main")

    page.reload()
    assert not page.is_checked("input[value=tournament_reminder]")
    assert page.is_checked("input[value=challenge]")


@SCREENS
def test_the_two_factor_set_up_shows_a_qr_code_and_the_admin_asks_for_the_code(
    mail_pages, inbox, screen
):
    page = mail_pages.new(**screen)
    name = f"twofactor{screen['width']}"
    _confirmed(page, inbox, name)
    page.goto("/accounts/two-factor/")
    page.click("main form button[type=submit]")

    qr = page.locator("svg.otp-qr")
    box = qr.bounding_box()
    assert box is not None and 120 <= box["width"] <= screen["width"]
    assert page.locator("code.otp-key").inner_text().strip()
    _shot(page, "accounts-two-factor-qr", screen)

    page.goto("/admin/")  # a player: the admin asks him to sign in as one it lets in
    page.wait_for_url("**/admin/login/**")
    assert page.is_visible("input[name=otp_token]")
    _shot(page, "accounts-admin-sign-in", screen)
