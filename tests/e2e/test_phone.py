"""A phone screen (390×844): the hand is tappable as it is seen, and no page of the site
scrolls sideways."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.steps import (
    open_table_from_lobby,
    play_until,
    seed_rated_matches,
    sign_up,
    state,
)

pytestmark = pytest.mark.timeout(300)

PHONE = {"width": 390, "height": 844}

CENTRES = """() => [...document.querySelectorAll(".hand button.card")].map((card) => {
    const box = card.getBoundingClientRect();
    const x = box.left + box.width / 2, y = box.top + box.height / 2;
    const hit = document.elementFromPoint(x, y)?.closest("[data-card]");
    return { card: card.dataset.card, x, y, hit: hit ? hit.dataset.card : null };
})"""


def two_player_hand_on_a_phone(pages: Any) -> Any:
    """A phone at a two-player table against a bot, at a trick where it is this page's
    turn with nine or more cards in hand (ten are dealt: the most crowded hand)."""
    page = pages.new(**PHONE)
    sign_up(page)
    open_table_from_lobby(page, players=2)
    page.click("#add-bot")
    page.click("#start-table")
    page.wait_for_selector("#table-root .felt")
    play_until(page, lambda s: s["phase"] == "play" and s["myTurn"] and len(s["hand"]) >= 9)
    return page


def test_on_a_phone_the_visual_centre_of_every_legal_card_is_that_card(pages):
    page = two_player_hand_on_a_phone(pages)

    centres = page.evaluate(CENTRES)

    assert centres, "no legal card to tap"
    assert [c["hit"] for c in centres] == [c["card"] for c in centres]


def test_on_a_phone_a_tap_on_a_cards_centre_plays_that_card(pages):
    page = two_player_hand_on_a_phone(pages)
    before = state(page)
    centres = page.evaluate(CENTRES)
    target = centres[len(centres) // 2]  # a card from the middle of the hand

    page.mouse.click(target["x"], target["y"])
    page.wait_for_function(
        "v => Number(document.getElementById('table-root').dataset.version) > v",
        arg=before["version"],
    )

    assert target["card"] in before["hand"] and target["card"] not in state(page)["hand"]


WIDE = """() => {
    const width = document.documentElement.clientWidth;
    const over = [...document.querySelectorAll("body *")]
        .filter((el) => el.getBoundingClientRect().right > width + 1 && !el.closest(".sheet-wrap, .scroll-x"))
        .map((el) => `${el.tagName.toLowerCase()}.${el.className}`.slice(0, 80));
    return { scroll: document.documentElement.scrollWidth, width, over: over.slice(0, 5) };
}"""


def sideways(page: Any, path: str) -> dict[str, Any]:
    page.goto(path)
    page.wait_for_load_state("networkidle")
    result = page.evaluate(WIDE)
    result["path"] = path
    return result


def test_no_page_of_the_sites_navigation_scrolls_sideways_on_a_phone(pages, e2e_server):
    """Every page of the navigation, signed out and signed in with rated matches behind
    him (a leaderboard, a player page and a profile with rows), at 390 px."""
    out = pages.new(**PHONE)
    page = pages.new(**PHONE)
    username = sign_up(page)
    seed_rated_matches(e2e_server, username)
    public = ["/", "/play/", "/tournaments/", "/leaderboards/", "/leaderboards/?provisional=1",
              "/rules/", "/accounts/login/", "/accounts/signup/", f"/players/{username}/"]  # fmt: skip
    signed_in = [*public, "/matches/", "/accounts/profile/"]

    wide = [r for r in (sideways(out, p) for p in public) if r["scroll"] > r["width"]]
    wide += [r for r in (sideways(page, p) for p in signed_in) if r["scroll"] > r["width"]]

    assert wide == []
