"""Tournaments in the browser, as an organiser and players use them.

The organiser announces every tournament here in the admin site (a superuser made with
``createsuperuser``, as on a real server); players register on the pages, or through
the REST API; the server's own tick (every 5 s) does the rest.
"""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from tests.e2e.conftest import Pages
from tests.e2e.steps import (
    PASSWORD,
    admin_add_walk_in,
    api_call,
    api_player,
    sign_in,
    sign_up,
)
from tests.e2e.test_lobby_and_languages import OVERFLOW

pytestmark = pytest.mark.timeout(300)

ORGANISERS = itertools.count(1)
TICK = 90_000  # ms: many of the server's 5-second ticks: a slow machine running the whole suite


@dataclass
class Organiser:
    page: Any

    def announce(
        self,
        name: str,
        *,
        rounds: int = 2,
        check_in_minutes: int = 0,
        starts_in: timedelta = timedelta(hours=2),
        break_seconds: int = 0,
    ) -> int:
        """Add an unrated Swiss at tables of 3 (simple rules, matches to 100) in the
        admin site, schedule it and open its registration now; returns its id."""
        page = self.page
        page.goto("/admin/tournaments/tournament/add/")
        page.fill("#id_name", name)
        page.select_option("#id_format", "swiss")
        page.select_option("#id_players_per_table", "3")
        page.select_option("#id_preset", "simple")
        page.fill("#id_match_target", "100")
        page.uncheck("#id_rated")
        page.fill("#id_rounds", str(rounds))
        page.fill("#id_break_seconds", str(break_seconds))
        starts = datetime.now(UTC) + starts_in
        opens = starts - timedelta(minutes=1)  # "Open registration now" brings it forward
        for field, when in (("registration_opens_at", opens), ("starts_at", starts)):
            page.fill(f"#id_{field}_0", when.strftime("%Y-%m-%d"))
            page.fill(f"#id_{field}_1", when.strftime("%H:%M:%S"))
        page.fill("#id_check_in_minutes", str(check_in_minutes))
        page.click("input[name=_continue]")
        page.wait_for_url(re.compile(r"/admin/tournaments/tournament/\d+/change/"))
        tournament_id = int(page.url.rstrip("/").split("/")[-2])
        self.act(tournament_id, "schedule")
        self.act(tournament_id, "open_registration")
        return tournament_id

    def act(self, tournament_id: int, action: str) -> str:
        """Run an action of the admin's tournament list on one tournament; returns the
        message it shows."""
        self.act_asking(tournament_id, action)
        return self.page.inner_text(".messagelist")

    def act_asking(self, tournament_id: int, action: str) -> str:
        """Choose an action of the admin's tournament list for one tournament; returns
        the page's text (an action that asks first, e.g. cancel, shows its question)."""
        page = self.page
        page.goto("/admin/tournaments/tournament/")
        page.check(f"input[name=_selected_action][value='{tournament_id}']")
        page.select_option("select[name=action]", action)
        page.click("button[name=index]")
        return page.inner_text("#content")


@pytest.fixture(scope="module")
def organiser(browser: Any, e2e_server: Any) -> Iterator[Organiser]:
    # One per module that uses this fixture (other modules import it): each its own name.
    username = f"organiser{os.getpid()}x{next(ORGANISERS)}"
    e2e_server.manage(
        "createsuperuser", "--noinput", "--username", username, "--email", f"{username}@example.com",
        DJANGO_SUPERUSER_PASSWORD=PASSWORD,
    )  # fmt: skip
    opened = Pages(browser, e2e_server.url)
    page = opened.new()
    sign_in(page, username)
    yield Organiser(page)
    opened.close()
    assert not opened.errors, "\n".join(opened.errors)


@pytest.fixture(scope="module")
def running(organiser: Organiser, browser: Any, e2e_server: Any) -> Iterator[int]:
    """A Swiss started by the organiser with two players who registered through the API,
    its first round at live tables."""
    tournament_id = organiser.announce("Running Swiss")
    opened = Pages(browser, e2e_server.url)
    page = opened.new()
    for _ in range(2):
        _name, token = api_player(page)
        api_call(page, token, "POST", f"/api/v1/tournaments/{tournament_id}/register/")
    assert "Started: 1." in organiser.act(tournament_id, "start_now")
    page.goto(f"/tournaments/{tournament_id}/")
    page.wait_for_selector(".round a[href^='/tables/']", timeout=TICK)
    yield tournament_id
    opened.close()


def section(page: Any, heading: str) -> Any:
    return page.locator("section", has=page.locator(f"h2:text-is('{heading}')"))


def entry(page: Any) -> str:
    return page.inner_text("[data-live-part=you]")


# ------------------------------------------------------------------------------------------


def test_an_organiser_announces_a_tournament_in_the_admin_and_players_find_it_upcoming(
    organiser, pages
):
    tournament_id = organiser.announce("Autumn Swiss", rounds=3)

    page = pages.new()
    page.goto("/tournaments/")
    section(page, "Upcoming").get_by_role("link", name="Autumn Swiss").click()

    assert page.url.endswith(f"/tournaments/{tournament_id}/")
    assert page.inner_text(".status strong") == "Registration"
    assert "Swiss: 3 rounds." in page.inner_text("ul.tournament-rules")
    assert "Starts" in page.inner_text("dl.schedule")


def test_the_rules_read_as_one_list(organiser, pages):
    """One rule under another, each as wide as the page: not a grid of narrow columns."""
    tournament_id = organiser.announce("Rules Swiss")
    page = pages.new()
    page.goto(f"/tournaments/{tournament_id}/")

    lefts = page.eval_on_selector_all(
        "ul.tournament-rules > li", "lis => lis.map(li => Math.round(li.getBoundingClientRect().x))"
    )

    assert len(lefts) > 3 and len(set(lefts)) == 1


def test_a_visitor_who_is_not_signed_in_is_asked_to_sign_in_instead_of_buttons(organiser, pages):
    tournament_id = organiser.announce("Open Swiss")
    page = pages.new()
    page.goto(f"/tournaments/{tournament_id}/")
    assert page.locator("[data-live-part=you] button").count() == 0

    page.click("text=Sign in to take part.")

    assert page.url.endswith(f"/accounts/login/?next=/tournaments/{tournament_id}/")


def test_a_player_registers_checks_in_and_withdraws_with_the_buttons(organiser, pages):
    tournament_id = organiser.announce("Check-in Swiss", check_in_minutes=10)
    page = pages.new()
    sign_up(page)
    page.goto(f"/tournaments/{tournament_id}/")

    page.click("button:text-is('Register')")
    assert page.inner_text(".messages") == "You are registered."
    assert "Your entry: registered." in entry(page)

    # The organiser opens check-in early: a window longer than the time to the start.
    organiser.page.goto(f"/admin/tournaments/tournament/{tournament_id}/change/")
    organiser.page.fill("#id_check_in_minutes", "180")
    organiser.page.click("input[name=_save]")
    # The tick opens it; the page shows the button without a reload.
    page.click("button:text-is('Check in')", timeout=TICK)
    assert page.inner_text(".messages") == "You are checked in. Good luck!"
    assert "Your entry: checked in." in entry(page)

    page.click("button:text-is('Withdraw')")
    assert page.inner_text(".messages") == "You have withdrawn."
    assert page.locator("button:text-is('Register')").is_visible()


def test_the_entrants_update_without_a_reload_when_someone_registers_through_the_api(
    organiser, pages
):
    tournament_id = organiser.announce("Busy Swiss")
    watcher = pages.new()
    watcher.goto(f"/tournaments/{tournament_id}/")
    watcher.evaluate("() => { window.notReloaded = true; }")
    assert watcher.inner_text("#entrants") == "Entrants (0)"

    name, token = api_player(watcher)
    api_call(watcher, token, "POST", f"/api/v1/tournaments/{tournament_id}/register/")

    watcher.wait_for_selector(f"ul.entrants li:has-text('{name}')")
    assert watcher.inner_text("#entrants") == "Entrants (1)"
    assert watcher.evaluate("() => window.notReloaded") is True


def test_a_notification_sent_before_the_page_s_socket_opened_is_shown(organiser, pages, e2e_server):
    """An announcement posted between a page's rendering and its notification socket's
    subscription sent that page no message: the notification area is fetched again when
    the socket opens."""
    tournament_id = organiser.announce("Quiet Swiss")
    page = pages.new()
    sign_up(page)
    page.goto(f"/tournaments/{tournament_id}/")
    page.click("button:text-is('Register')")
    announced: list[bool] = []

    def announce_then_connect(ws: Any) -> None:
        if not announced:  # the page is rendered; its socket is not open yet
            announced.append(True)
            e2e_server.manage(
                "shell", "-c",
                "from tournaments.notices import announcement_create; "
                f"announcement_create(tournament={tournament_id}, text='Tea at eight.')",
            )  # fmt: skip
        ws.connect_to_server()

    page.route_web_socket(re.compile(r"/ws/notifications/"), announce_then_connect)
    page.goto("/tournaments/")

    page.wait_for_selector("#notifications-unread:not([hidden])", timeout=TICK)
    assert announced and page.inner_text("#notifications-unread") == "1"


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_a_walk_in_s_page_opened_before_he_was_entered_tells_him_his_table_is_ready(
    organiser, pages, size, tmp_path
):
    """His notification area listens to his own socket, not to the tournaments he had
    entered when the page was loaded, so a walk-in's open page hears that he is seated."""
    tournament_id = organiser.announce("Walk-in Swiss")
    page = pages.new(width=size[0], height=size[1])
    walk_in = sign_up(page)
    page.goto("/leaderboards/")
    page.evaluate("() => { window.notReloaded = true; }")
    for _ in range(2):
        _name, token = api_player(page)
        api_call(page, token, "POST", f"/api/v1/tournaments/{tournament_id}/register/")

    admin_add_walk_in(organiser.page, tournament_id, walk_in)
    assert "Started: 1." in organiser.act(tournament_id, "start_now")

    page.wait_for_selector("#notifications-unread:not([hidden])", state="attached", timeout=TICK)
    assert page.evaluate("() => window.notReloaded") is True
    assert page.locator("#notifications-unread").text_content() == "1"
    assert "your table is ready" in page.locator("#notifications").inner_html()
    page.screenshot(path=str(tmp_path / f"walk-in-{size[0]}.png"))


def test_a_running_tournament_shows_its_round_with_links_to_the_live_tables(running, pages):
    page = pages.new()
    page.goto("/tournaments/")
    section(page, "Running").get_by_role("link", name="Running Swiss").click()

    page.click(".round a:text-is('Watch')")

    page.wait_for_url("**/tables/*/")
    page.wait_for_selector("#table-root")


def test_a_tournament_runs_by_itself_to_its_final_standings(organiser, pages):
    """Two players, one round at a table with a bot. Both leave their table by resigning:
    it is ranked by its scores, and the tournament finishes by itself."""
    tournament_id = organiser.announce("One-round Swiss", rounds=1)
    players = [pages.new(), pages.new()]
    names = [sign_up(page) for page in players]
    for page in players:
        page.goto(f"/tournaments/{tournament_id}/")
        page.click("button:text-is('Register')")
        page.evaluate("() => { window.notReloaded = true; }")

    organiser.act(tournament_id, "start_now")

    for page in players:
        # The page offers the table as soon as it opens, without a reload.
        page.click("a:text-is('Go to your table')", timeout=TICK)
        page.wait_for_selector("#table-root")
        page.once("dialog", lambda dialog: dialog.accept())
        # The last resignation ends the table, and its page reloads itself on that,
        # racing the form's own redirect: only the server's answer below matters.
        page.click("form.resign button", no_wait_after=True)
    watcher = pages.new()  # the players' table pages reload themselves when the table ends
    watcher.goto(f"/tournaments/{tournament_id}/")
    watcher.wait_for_selector(".status strong:text-is('Finished')", timeout=TICK)

    standings = watcher.eval_on_selector_all(
        "table.standings tbody tr", "rows => rows.map(r => r.cells[1].innerText)"
    )
    assert sorted(standings) == sorted(names)
    assert "ranked by scores" in watcher.inner_text(".round")
    watcher.goto("/tournaments/")
    assert section(watcher, "Finished").get_by_role("link", name="One-round Swiss").is_visible()


@pytest.mark.parametrize(
    ("locale", "words"),
    [
        ("ru-RU", ["Турниры", "Идут", "Турнирная таблица", "Туры", "Участники", "«Простая»"]),
        ("uk-UA", ["Турніри", "Тривають", "Турнірна таблиця", "Тури", "Учасники", "«Проста»"]),
    ],
)
def test_the_tournament_pages_speak_russian_and_ukrainian(running, pages, locale, words):
    page = pages.new(locale=locale)
    page.goto("/tournaments/")
    text = page.inner_text("main")
    page.goto(f"/tournaments/{running}/")
    text += page.inner_text("main")

    assert [word for word in words if word not in text] == []
    assert page.locator("html").get_attribute("lang") == locale[:2]


def test_nothing_overflows_a_390_by_844_phone_screen(running, pages):
    page = pages.new(width=390, height=844)
    seen = {}
    page.goto("/tournaments/")
    seen["list"] = page.evaluate(OVERFLOW)
    page.goto(f"/tournaments/{running}/")
    seen["running tournament"] = page.evaluate(OVERFLOW)

    assert {k: v for k, v in seen.items() if v["wide"] or v["scroll"] > 390} == {}
