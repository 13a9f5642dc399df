"""A club from its founding to its season table, in the browser at both sizes.

The founder creates a club on the site (desktop) and makes an invitation link; a member
joins by the link on a phone (390×844), and so do a second player and the co-organiser;
the founder gives the co-organiser the events right alone (through the API, as another
front end would). The co-organiser, who is no staff member, opens the admin: he sees his
club's objects only, starts a season scored by table place and a recurring Swiss evening
(desktop); then on his phone he creates its coming evening, skips next week's date from the
coming dates the admin lists, opens this evening from the series' page (its own page, where
that one evening is changed), opens its registration, and starts it when the three players
have registered (two on the desktop, one on the phone). The players play their round to
its end; the season table, empty before, then lists the three of them, with the evening
as a linked column, on the phone without the page scrolling sideways.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from tests.e2e.conftest import Pages
from tests.e2e.screens import DESKTOP, PHONE
from tests.e2e.steps import PASSWORD, register, sign_in, sign_up
from tests.e2e.test_duplicate_evening import play_round
from tests.e2e.test_lobby_and_languages import OVERFLOW
from tests.e2e.test_tournament_pages import TICK

pytestmark = pytest.mark.timeout(600)

SWISS = (
    '{"format": "swiss", "players_per_table": 3, "preset": "simple", "match_target": 100, '
    '"rated": false, "rounds": 1, "break_seconds": 0, "check_in_minutes": 0}'
)


def admin_action(page: Any, changelist: str, pk: int, action: str) -> str:
    page.goto(changelist)
    page.check(f"input[name=_selected_action][value='{pk}']")
    page.select_option("select[name=action]", action)
    page.click("button[name=index]")
    return page.inner_text(".messagelist")


def saved(page: Any) -> None:
    """The admin form was saved (its errors said otherwise)."""
    page.wait_for_selector(".messagelist .success, .errornote")
    assert page.locator(".errornote").count() == 0, page.inner_text("#content")


def no_sideways_scroll(page: Any) -> None:
    seen = page.evaluate(OVERFLOW)
    assert seen["scroll"] <= seen["width"], seen


@pytest.mark.slow(seconds=120)
def test_a_club_is_founded_runs_a_recurring_evening_and_its_season_table_moves(
    pages: Pages,
) -> None:
    # -- the founder creates the club and an invitation link ------------------------------
    founder = pages.new(**DESKTOP)
    founder_name = sign_up(founder)
    founder.goto("/clubs/new/")
    slug = f"walk-{founder_name[-8:].lower()}"
    founder.fill("input[name=name]", f"Walk club {founder_name}")
    founder.fill("input[name=slug]", slug)
    founder.select_option("select[name=access]", "private")
    founder.click("form:has(input[name=slug]) button[type=submit]")
    founder.wait_for_url(f"**/clubs/{slug}/")
    founder.click("button:text-is('New invitation link')")
    link = re.search(r"https?://\S+/clubs/invite/\S+/", founder.inner_text("body"))
    assert link, founder.inner_text("body")

    # -- a member joins by the link on a phone; a player and the co-organiser too -----------
    member = pages.new(**PHONE)
    joiners = [member, pages.new(**DESKTOP), pages.new(**DESKTOP)]
    names = [sign_up(page) for page in joiners]
    for page in joiners:
        page.goto(link.group(0))
        page.click("button:text-is('Join the club')")
        page.wait_for_url(f"**/clubs/{slug}/")
        assert page.locator("button:text-is('Leave the club')").count() == 1
    no_sideways_scroll(member)
    coorg, coorg_name = joiners[2], names[2]

    # -- the founder gives the co-organiser the events right alone --------------------------
    token = founder.request.post(
        "/api/v1/auth/token/", data={"username": founder_name, "password": PASSWORD}
    ).json()["token"]
    given = founder.request.fetch(
        f"/api/v1/clubs/{slug}/members/{coorg_name}/",
        method="PATCH",
        headers={"Authorization": f"Token {token}"},
        data={"rights": ["events"]},
    )
    assert given.ok, given.text()

    # -- the co-organiser's admin: a season and a recurring Swiss evening -------------------
    coorg.goto("/admin/")
    assert coorg.locator("a:text-is('Seasons')").count() == 1
    coorg.goto("/admin/clubs/season/add/")
    today = datetime.now(UTC).date()
    coorg.fill("#id_name", "Walk season")
    coorg.fill("#id_starts_on", (today - timedelta(days=1)).isoformat())
    coorg.fill("#id_ends_on", (today + timedelta(days=60)).isoformat())
    coorg.select_option("#id_scheme", "table")
    coorg.click("input[name=_save]")
    saved(coorg)
    season_id = int(coorg.get_attribute("#result_list tbody tr th a", "href").split("/")[-3])
    season_url = f"/clubs/{slug}/seasons/{season_id}/"
    founder.goto(season_url)
    assert "No finished events in this season yet." in founder.inner_text("body")

    at = datetime.now(UTC) + timedelta(hours=2)
    coorg.goto("/admin/clubs/series/add/")
    coorg.fill("#id_name", "Walk Swiss")
    coorg.select_option("#id_weekday", str(at.weekday()))
    coorg.fill("#id_start_time", at.strftime("%H:%M"))
    coorg.fill("#id_time_zone", "UTC")
    coorg.fill("#id_tournament_fields", SWISS)
    coorg.click("input[name=_save]")
    saved(coorg)
    series_id = int(coorg.get_attribute("#result_list tbody tr th a", "href").split("/")[-3])

    # -- on his phone he runs the evening: creates it, skips next week's, opens, starts ------
    phone = pages.new(**PHONE)
    sign_in(phone, coorg_name)
    done = admin_action(phone, "/admin/clubs/series/", series_id, "create_coming")
    assert "Evenings created: 1" in done, done
    phone.goto("/admin/clubs/series/")
    phone.check(f"input[name=_selected_action][value='{series_id}']")
    phone.select_option("select[name=action]", "skip_date")
    phone.click("button[name=index]")
    offered = phone.locator("#id_day option")
    # This evening is already created: its status shows (registration opens by itself
    # when the evening is near, so either word).
    first = offered.nth(0).inner_text().lower()
    assert offered.count() >= 2 and ("scheduled" in first or "registration" in first)
    next_week = offered.nth(1).get_attribute("value")
    phone.select_option("#id_day", next_week)
    assert phone.locator("#skip-date-form input[type=submit]").is_visible()
    phone.click("#skip-date-form input[type=submit]")
    assert "Skipped: 1" in phone.inner_text(".messagelist")
    phone.goto(f"/admin/clubs/series/{series_id}/change/")
    coming = phone.locator(".coming-evenings li")
    assert "skipped" in coming.nth(1).inner_text()
    coming.nth(0).locator("a:text-is('change this evening')").click()  # this one evening
    phone.wait_for_url("**/admin/tournaments/tournament/*/change/")
    tid = int(phone.url.split("/")[-3])
    assert phone.locator("#id_name").input_value().startswith("Walk Swiss")
    phone.goto("/admin/tournaments/tournament/")
    evening = phone.locator("#result_list tbody tr th a", has_text="Walk Swiss")
    assert evening.count() == 1  # his club's events only
    assert phone.locator("select[name=action]").is_visible()
    admin_action(phone, "/admin/tournaments/tournament/", tid, "open_registration")
    players = [founder, member, joiners[1]]
    for page in players:
        page.goto(f"/tournaments/{tid}/")
        register(page)
    assert "Started" in admin_action(phone, "/admin/tournaments/tournament/", tid, "start_now")

    play_round(players, tid, 1)
    watcher = pages.new(**DESKTOP)
    watcher.goto(f"/tournaments/{tid}/")
    watcher.wait_for_selector(".status strong:text-is('Finished')", timeout=TICK)

    # -- the season table moved: the three players, the evening a linked column --------------
    for page in (founder, member):
        page.goto(season_url)
        rows = page.locator("table.season tbody tr")
        assert rows.count() == 3
        assert page.locator(f"table.season thead a[href='/tournaments/{tid}/']").count() == 1
        no_sideways_scroll(page)
    totals = founder.eval_on_selector_all(
        "table.season tbody tr", "rows => rows.map(r => Number(r.cells[2].innerText))"
    )
    assert sorted(totals, reverse=True) == totals and sum(totals) > 0
