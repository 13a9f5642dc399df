"""The practice hint at a table against bots: what strong would do and why, for the
decision at hand only, naming the seats as the table's buttons do."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.e2e.steps import act_once, play_against_bots, play_until, sign_up, state

pytestmark = pytest.mark.timeout(300)

SIZES = [(1280, 800), (390, 844)]


def my_turn(pages: Any, width: int, height: int) -> Any:
    page = pages.new(width=width, height=height)
    sign_up(page)
    play_against_bots(page)
    play_until(page, lambda s: s["myTurn"])
    return page


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_hint_says_why_and_leaves_the_screen_with_the_move(pages, width, height):
    page = my_turn(pages, width, height)
    page.click("#hint-ask")
    answer = page.locator("#hint-answer")
    answer.wait_for(state="visible", timeout=60_000)
    assert "Why" in answer.text_content() or "face down" in answer.text_content()

    before = state(page)["version"]
    assert act_once(page)
    page.wait_for_function(
        "v => Number(document.getElementById('table-root').dataset.version) > v", arg=before
    )
    assert answer.is_hidden()


GIVE = {
    "action": {"type": "give", "to": 1, "card": "KS"},
    "reason": {"value": 12.5, "other": {"type": "give", "to": 2, "card": "KS"}, "gain": 4.0},
    "version": 0,
    "hints": 1,
}


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_a_hint_names_a_bot_as_the_table_s_buttons_do(pages, width, height):
    page = my_turn(pages, width, height)
    # The search's answer for a give, whatever the cards dealt here: a give to seat 2.
    page.route(
        "**/hint/",
        lambda route: route.fulfill(
            status=200, content_type="application/json", body=json.dumps(GIVE)
        ),
    )
    page.click("#hint-ask")
    answer = page.locator("#hint-answer")
    answer.wait_for(state="visible")
    assert "Bot 2" in answer.text_content() and "#" not in answer.text_content()
