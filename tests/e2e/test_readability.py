"""What a person sees on the evening's pages, at 1280×800 and on a phone at 390×844:
every text readable (WCAG AA contrast), the unread
count in sight on a phone, a warning that looks like one, the rating chart's labels
whole, long names broken between words only, and the header on one line."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.contrast import low_contrast
from tests.e2e.screens import DESKTOP, PHONE, SCREENS
from tests.e2e.steps import play_against_bots, sign_up

pytestmark = pytest.mark.timeout(300)


TWO_NOTICES = """
from accounts.models import User
from tests.tournaments.helpers import TournamentFactory
from tournaments import notices
from tournaments.models import Notification
me = User.objects.get(username="{username}")
t = TournamentFactory(name="Friday Swiss")
url = f"/tournaments/{{t.pk}}/"
notices.notifications_create(tournament=t, user_ids=[me.pk], kind=Notification.Kind.ANNOUNCEMENT,
               text="Bring your own pen tonight", url=url)
notices.notifications_create(tournament=t, user_ids=[me.pk], kind=Notification.Kind.CHECK_IN, url=url)
"""


def with_two_unread_notices(pages: Any, server: Any, screen: dict[str, int]) -> Any:
    page = pages.new(**screen)
    username = sign_up(page)
    server.manage("shell", "-c", TWO_NOTICES.format(username=username))
    page.goto("/tournaments/")
    return page


def open_notifications(page: Any) -> None:
    page.click("#notifications summary")
    page.wait_for_selector("#notifications .notifications-list .note a", state="visible")


@SCREENS
def test_the_header_and_the_open_notification_list_are_readable(pages, e2e_server, screen):
    page = with_two_unread_notices(pages, e2e_server, screen)
    if screen is PHONE:
        page.click(".menu-button")  # the whole header, the menu's links too

    header = low_contrast(page, ".site-header")
    open_notifications(page)
    dropdown = low_contrast(page, "#notifications .notifications-list")

    assert header == [] and dropdown == []


@SCREENS
def test_every_text_of_a_table_page_is_readable(pages, screen):
    page = pages.new(**screen)
    sign_up(page)
    play_against_bots(page)
    page.wait_for_selector(".seat .name")

    assert low_contrast(page) == []


@SCREENS
def test_the_unread_count_shows_in_the_header_without_opening_the_menu(pages, e2e_server, screen):
    page = with_two_unread_notices(pages, e2e_server, screen)

    count = page.locator("#notifications-unread")

    assert count.is_visible() and count.inner_text() == "2"
    box = count.bounding_box()
    header = page.locator(".site-header .bar").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= screen["width"]
    assert box["y"] + box["height"] <= header["y"] + header["height"]


def test_on_a_phone_the_bar_keeps_brand_bell_language_and_menu_on_one_row(pages, e2e_server):
    page = with_two_unread_notices(pages, e2e_server, PHONE)

    middles = page.evaluate(
        """() => [".brand", "#notifications summary", "#language", ".menu-button"].map((s) => {
            const r = document.querySelector(s).getBoundingClientRect();
            return r.top + r.height / 2;
        })"""
    )

    assert max(middles) - min(middles) < 12


@SCREENS
def test_on_a_phone_the_open_notification_list_stays_on_the_screen(pages, e2e_server, screen):
    page = with_two_unread_notices(pages, e2e_server, screen)

    open_notifications(page)
    box = page.locator("#notifications .notifications-list").bounding_box()

    assert box["x"] >= 0 and box["x"] + box["width"] <= screen["width"]


HUE = """(selector) => {
    const [r, g, b] = getComputedStyle(document.querySelector(selector)).backgroundColor
        .match(/\\d+/g).map(Number).map((v) => v / 255);
    const max = Math.max(r, g, b), min = Math.min(r, g, b), d = max - min;
    if (!d) return null;
    const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
    return Math.round((h * 60 + 360) % 360);
}"""

OVERLAPPING = """
from accounts.models import User
from tests.tournaments.helpers import TournamentFactory
from tournaments import services
from tournaments.models import Tournament
me = User.objects.get(username="{username}")
first, second = TournamentFactory(name="Early Swiss"), TournamentFactory(name="Late Swiss")
for t in (first, second):
    services.tournament_open_registration(tournament=t)
services.registration_create(tournament=first, user=me)
print(second.pk)
"""


@SCREENS
def test_the_overlap_warning_shows_in_a_warning_style_beside_the_green_success(
    pages, e2e_server, screen
):
    page = pages.new(**screen)
    username = sign_up(page)
    out = e2e_server.manage_output("shell", "-c", OVERLAPPING.format(username=username))
    page.goto(f"/tournaments/{int(out.split()[-1])}/")

    page.click("form[action$='/register/'] button")

    warning = page.locator(".messages li.warning")
    assert "at overlapping times" in warning.inner_text()
    success, caution = (
        page.evaluate(HUE, ".messages li.success"),
        page.evaluate(HUE, ".messages li.warning"),
    )
    assert 90 <= success <= 160  # green: the registration went through
    assert 35 <= caution <= 60  # amber: but look out
    assert low_contrast(page, ".messages") == []


LABELS_INSIDE = """() => [...document.querySelectorAll("svg.rating-chart")].flatMap((svg) => {
    const view = svg.viewBox.baseVal;
    return [...svg.querySelectorAll("text")].map((text) => {
        const box = text.getBBox();
        return { text: text.textContent, left: box.x, right: box.x + box.width,
                 inside: box.x >= view.x && box.x + box.width <= view.x + view.width };
    });
})"""

MATCHES = """
from accounts.models import User
from ratings.services import rating_apply_result
from tests.factories import UserFactory
from tests.ratings.helpers import finished_match
me = User.objects.get(username="{username}")
others = [UserFactory(username=f"{username}-{{n}}") for n in (1, 2)]
for seed in range({matches}):
    rating_apply_result(result_id=finished_match([me, *others], seed=seed + 1).pk)
"""


@SCREENS
@pytest.mark.parametrize("matches", ["two", "many"])
def test_every_label_of_the_rating_chart_is_drawn_whole(pages, e2e_server, screen, matches):
    """Two matches: the axis counts them; more (three here): the axis shows dates."""
    page = pages.new(**screen)
    username = sign_up(page)
    count = {"two": 2, "many": 3}[matches]
    e2e_server.manage("shell", "-c", MATCHES.format(username=username, matches=count))
    page.goto(f"/players/{username}/")

    labels = page.evaluate(LABELS_INSIDE)

    assert labels and [label for label in labels if not label["inside"]] == []


SURNAME = "Константинопольский-Преображенский"  # with a first name, 38 of the 40 allowed
FIRST_NAMES = iter(["Ян", "Лев", "Ия", "Ада", "Ева", "Яков", "Иван"])  # display names are unique

BROKEN_WORDS = """(name) => {
    const words = name.split(/[\\s-]+/);
    const broken = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const word of words) {
            const at = node.textContent.indexOf(word);
            if (at < 0 || !node.parentElement.getClientRects().length) continue;
            const range = document.createRange();
            range.setStart(node, at);
            range.setEnd(node, at + word.length);
            const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
            if (lines.size > 1) broken.push(`${word} in ${node.parentElement.className}`);
        }
    }
    return broken;
}"""


def rename(page: Any, name: str) -> None:
    page.goto("/accounts/profile/")
    page.fill("#id_display_name", name)
    page.click("main form button[type=submit]")
    page.wait_for_selector(".messages li.success")


@SCREENS
def test_a_long_cyrillic_name_breaks_between_words_only(pages, screen):
    page = pages.new(**screen)
    sign_up(page)
    name = f"{next(FIRST_NAMES)} {SURNAME}"
    rename(page, name)
    play_against_bots(page)
    page.wait_for_selector(".seat .name")

    assert page.evaluate(BROKEN_WORDS, name) == []
    page.goto("/matches/")
    assert page.evaluate(BROKEN_WORDS, name) == []


def test_at_1280_the_signed_in_header_is_one_line(pages):
    page = pages.new(**DESKTOP)
    sign_up(page)
    rename(page, f"{next(FIRST_NAMES)} {SURNAME}")

    tops = page.evaluate(
        """() => [...document.querySelectorAll(".site-header .bar > :not(nav), .site-header .menu > *")]
            .filter((el) => el.getClientRects().length)
            .map((el) => { const r = el.getBoundingClientRect(); return r.top + r.height / 2; })"""
    )
    sign_out = page.locator(".site-header button.link").bounding_box()

    assert max(tops) - min(tops) < 12
    assert sign_out["y"] < 40


ONE_MORE_NOTICE = """
from accounts.models import User
from tournaments import notices
from tournaments.models import Notification
me = User.objects.get(username="{username}")
notices.notifications_create(tournament=Notification.objects.filter(user=me).latest("pk").tournament, user_ids=[me.pk],
               kind=Notification.Kind.ANNOUNCEMENT, text="Doors open at seven")
"""


def test_an_open_notification_list_is_not_drawn_again_under_the_readers_eyes(pages, e2e_server):
    """A notification that arrives while the list is open waits until it is closed: the
    list being read stays as it is, and the new unread count shows once it is closed."""
    page = pages.new(**DESKTOP)
    username = sign_up(page)
    e2e_server.manage("shell", "-c", TWO_NOTICES.format(username=username))
    changes: list[str] = []

    def watch(ws: Any) -> None:
        server = ws.connect_to_server()
        server.on_message(lambda message: (changes.append(str(message)), ws.send(message)))

    page.route_web_socket(re.compile(r"/ws/notifications/"), watch)
    page.goto("/tournaments/")
    open_notifications(page)
    page.wait_for_selector("#notifications-unread", state="hidden")  # opening read them
    page.evaluate("() => { document.getElementById('notifications').kept = true; }")
    seen = len(changes)

    e2e_server.manage("shell", "-c", ONE_MORE_NOTICE.format(username=username))
    for _ in range(300):  # until the socket has said "changed" (30 s at most)
        if len(changes) > seen:
            break
        page.wait_for_timeout(100)
    page.wait_for_timeout(1_500)  # longer than a redraw would take (300 ms, then a fetch)

    assert len(changes) > seen
    assert page.evaluate("() => document.getElementById('notifications').kept === true")
    page.click("#notifications summary")  # closed: now the count comes
    page.wait_for_selector("#notifications-unread:not([hidden])")
    assert page.inner_text("#notifications-unread") == "1"
