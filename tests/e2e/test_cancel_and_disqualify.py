"""The organiser's word reaching the player, in the browser at 1280×800 and 390×844:
a cancel is confirmed with a reason, and the entrant reads it
in his notifications and on the page; a player disqualified mid-round reads why beside
his table and loses the Resign button, without a reload."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.screens import SCREENS
from tests.e2e.steps import api_call, api_player, register, sign_up
from tests.e2e.test_tournament_pages import TICK, organiser  # noqa: F401 (a fixture)

pytestmark = pytest.mark.timeout(400)


def confirm_with_reason(by: Any, action: str, reason: str) -> str:
    """On the action's confirmation page: the reason, then yes; the message shown."""
    page = by.page
    page.wait_for_selector(f"#{action}-form")
    page.fill(f"#{action}-form input[name=reason]", reason)
    page.click(f"#{action}-form input[type=submit]")
    return page.inner_text(".messagelist")


@SCREENS
def test_a_cancel_is_confirmed_with_a_reason_and_the_entrant_reads_it(
    organiser,  # noqa: F811
    pages,
    screen,
):
    tournament_id = organiser.announce(f"Snowed-in Swiss {screen['width']}")
    page = pages.new(**screen)
    sign_up(page)
    page.goto(f"/tournaments/{tournament_id}/")
    register(page)

    first = organiser.act_asking(tournament_id, "cancel")
    assert "Nothing more happens" in first
    assert "Cancelled: 1." in confirm_with_reason(organiser, "cancel", "The club is snowed in")

    page.reload()
    assert "The club is snowed in" in page.inner_text(".status")
    assert "Your entry: cancelled with the tournament." in page.inner_text("[data-live-part=you]")
    assert page.inner_text("#notifications-unread") == "1"
    page.click("#notifications summary")
    assert "is cancelled: The club is snowed in" in page.inner_text(".notifications-list")


@SCREENS
def test_a_player_disqualified_mid_round_reads_why_and_loses_the_resign_button(
    organiser,  # noqa: F811
    pages,
    screen,
):
    tournament_id = organiser.announce(f"Strict Swiss {screen['width']}")
    page = pages.new(**screen)
    username = sign_up(page)
    page.goto(f"/tournaments/{tournament_id}/")
    register(page)
    for _ in range(2):
        _name, token = api_player(page)
        api_call(page, token, "POST", f"/api/v1/tournaments/{tournament_id}/register/")
    assert "Started: 1." in organiser.act(tournament_id, "start_now")
    page.goto(f"/tournaments/{tournament_id}/")
    page.click("text=Go to your table", timeout=TICK)
    page.wait_for_url(re.compile(r"/tables/\d+/"))
    page.wait_for_selector("#table-root .felt")
    assert page.locator("form.resign button").is_visible()

    organiser.page.goto(f"/admin/tournaments/registration/?q={username}")
    organiser.page.check("input[name=_selected_action]")
    organiser.page.select_option("select[name=action]", "disqualify")
    organiser.page.click("button[name=index]")
    assert "Disqualified: 1." in confirm_with_reason(organiser, "disqualify", "Used a phone")

    panel = page.locator(".panel-disqualified")
    panel.wait_for(timeout=TICK)
    assert "disqualified you from this tournament: Used a phone" in panel.inner_text()
    page.wait_for_selector("form.resign", state="hidden")
