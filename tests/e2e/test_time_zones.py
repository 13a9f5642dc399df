"""A player in another zone reads the round's start in his own, with its name, and the
organiser's admin says which zone its times are in, at 1280×800 and
390×844."""

from __future__ import annotations

import re

import pytest

from tests.e2e.screens import SCREENS
from tests.e2e.steps import api_call, api_player, sign_up
from tests.e2e.test_tournament_pages import TICK, organiser  # noqa: F401 (a fixture)

pytestmark = pytest.mark.timeout(300)


@SCREENS
def test_a_seated_rounds_start_is_shown_in_the_players_zone(
    organiser,  # noqa: F811
    pages,
    screen,
):
    tournament_id = organiser.announce(f"Kyiv Swiss {screen['width']}", break_seconds=900)
    page = pages.new(**screen, timezone_id="Europe/Kyiv")
    sign_up(page)
    page.goto("/accounts/profile/")
    page.select_option("#id_time_zone", "Europe/Kyiv")
    page.click("main form button[type=submit]")
    page.wait_for_selector(".messages")
    page.goto(f"/tournaments/{tournament_id}/")
    page.click("button:text-is('Register')")
    _name, token = api_player(page)
    api_call(page, token, "POST", f"/api/v1/tournaments/{tournament_id}/register/")
    assert "Started: 1." in organiser.act(tournament_id, "start_now")

    heading = page.locator(".round h3")
    heading.filter(has_text="starts at").wait_for(timeout=TICK)

    text = heading.first.inner_text()
    assert re.search(r"starts at \d\d:\d\d EET\)", text), text
    assert "p.m." not in text and "a.m." not in text
    organiser.page.goto("/admin/tournaments/tournament/add/")
    assert "Times are in" in organiser.page.inner_text(".field-starts_at")
