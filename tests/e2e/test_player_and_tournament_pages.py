"""The player's own page and the tournament pages as a person sees them, at 1280×800 and
390×844: casual play apart from the rated, the header's link to his page, a cancelled
tournament's page, the tournaments list on a phone, an amended result's reason once and
in the bell."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.e2e.screens import SCREENS
from tests.e2e.steps import PASSWORD, sign_in, sign_up
from tests.e2e.test_amended_result import REASON, amended_table

pytestmark = pytest.mark.timeout(400)

CASUAL = """
from accounts.models import User
from tests.ratings.helpers import finished_match
me = User.objects.get(username="{username}")
for seed in (1, 2, 3):
    finished_match([me, "basic", "strong"], seed=seed, rated=False)
"""

CANCELLED = """
from tests.factories import UserFactory
from tests.tournaments.helpers import TournamentFactory, entered
from tournaments import services
UserFactory.reset_sequence({start})
t = TournamentFactory(name="Snowed-in Cup {start}")
player = entered(t, 3)[0]
services.tournament_cancel(tournament=t, reason="The club is snowed in")
player.set_password("{password}")
player.save()
print(player.username, t.pk)
"""


def open_menu(page: Any) -> None:
    """On a phone the header's links fold into the menu: open it."""
    button = page.locator(".menu-button")
    if button.is_visible():
        button.click()


@SCREENS
def test_my_page_is_linked_from_the_header_and_shows_my_casual_matches_apart(
    pages, e2e_server, screen
):
    page = pages.new(locale="ru-RU", **screen)
    username = sign_up(page)
    e2e_server.manage("shell", "-c", CASUAL.format(username=username))
    page.goto("/play/")
    open_menu(page)

    page.click(".site-header a.my-page")
    page.wait_for_url(f"**/players/{username}/")

    casual = page.locator("dl.casual-stats dd").first
    assert page.locator("#casual-heading").inner_text() == "Партии без рейтинга"
    assert casual.is_visible() and casual.inner_text() == "3"
    assert page.locator("table.casual tbody tr").count() == 3


def cancelled_tournament(server: Any) -> tuple[str, int]:
    start = random.randrange(10**6, 10**9)
    out = server.manage_output("shell", "-c", CANCELLED.format(start=start, password=PASSWORD))
    username, tournament_id = out.split()[-2:]
    return username, int(tournament_id)


@SCREENS
def test_a_cancelled_tournaments_page_promises_nothing_more(pages, e2e_server, screen):
    username, tournament_id = cancelled_tournament(e2e_server)
    page = pages.new(**screen)
    sign_in(page, username)

    page.goto(f"/tournaments/{tournament_id}/")
    page.locator("#chat .chat-note").wait_for()

    assert not page.get_by_text("Expected end").is_visible()
    assert page.get_by_text("The tournament was cancelled: it has no standings.").is_visible()
    assert "registered" not in page.inner_text("ul.entrants")
    assert page.locator("#chat .chat-form").is_hidden()
    assert (
        page.inner_text("#chat .chat-note") == "The tournament was cancelled: its chat is closed."
    )


HEADINGS = """() => [...document.querySelectorAll("table.tournaments th")].map((th) => {
    const range = document.createRange();
    range.selectNodeContents(th);
    const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
    return { text: th.textContent.trim(), lines: tops.size, visible: th.offsetParent !== null };
})"""


@SCREENS
def test_the_tournaments_list_breaks_no_heading_inside_a_word(pages, e2e_server, screen):
    cancelled_tournament(e2e_server)  # the list has a row or more
    page = pages.new(locale="ru-RU", **screen)

    page.goto("/tournaments/")

    headings = [h for h in page.evaluate(HEADINGS) if h["visible"]]
    assert headings and all(h["lines"] == 1 for h in headings), headings


@SCREENS
def test_an_amended_result_is_told_once_on_the_table_page_and_in_the_bell(
    pages, e2e_server, screen
):
    username, _place, table_id, _tournament_id = amended_table(e2e_server)
    page = pages.new(**screen)
    sign_in(page, username)

    page.goto(f"/tables/{table_id}/")
    said = page.locator(f"text={REASON}")
    page.click("#notifications summary")

    assert page.locator("main").inner_text().count(REASON) == 1
    assert said.first.is_visible()
    assert f"amended the places at your table: {REASON}" in page.inner_text(".notifications-list")
