"""What a player sees around a match: which deal of how many, notices that leave the cards
where they are, what the declarer took, the deal's bidding, the replay's hands, the lobby's
bot levels and match length, the invite link's Copy, and "Play again" at the end."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.screens import SCREENS
from tests.e2e.steps import sign_up

pytestmark = pytest.mark.timeout(600)

FINISHED = """
from accounts.models import User
from tests.ratings.helpers import finished_match
me = User.objects.get(username="{username}")
print(finished_match([me, "basic", "strong"], seed=5, rated=False).table_id)
"""


def quick_match(page: Any, deals: str) -> None:
    page.goto("/play/")
    page.select_option("#quick-deals", deals)
    page.click("#play-bots")
    page.wait_for_url("**/tables/*/")
    page.wait_for_selector("#table-root .felt")


@SCREENS
def test_a_quick_match_says_which_of_its_deals_is_being_played(pages, screen):
    page = pages.new(**screen)
    sign_up(page)
    quick_match(page, "3")

    number = page.locator(".table-bar .deal-no")
    number.wait_for()

    assert number.is_visible() and number.inner_text() == "Deal 1 of 3"


@SCREENS
def test_a_redeal_keeps_the_number_of_the_deal_dealt_again(pages, screen):
    page = pages.new(**screen)
    sign_up(page)
    quick_match(page, "3")
    # The bar after a redeal: the sheet has a redeal row, the same deal is dealt again.
    page.evaluate(
        """() => {
            const s = window.thousandTable.state;
            s.sheet = [{ ...(s.sheet[0] || {}), deal: 0, outcome: "redeal", lines: [] }];
            window.thousandTable.socket.onMessage({ type: "state", view: s.view });
        }"""
    )

    assert page.locator(".table-bar .deal-no").inner_text() == "Deal 1 of 3"


@SCREENS
def test_a_notice_floats_over_the_table_and_the_cards_stay_under_the_pointer(pages, screen):
    page = pages.new(**screen)
    sign_up(page)
    quick_match(page, "3")
    page.wait_for_selector(".hand .card")
    cards = ".hand .card"
    before = page.eval_on_selector_all(cards, "cs => cs.map(c => c.getBoundingClientRect().top)")

    # What the page does when a marriage is declared: the notice above the table shows.
    page.evaluate(
        """() => {
            const notice = document.getElementById("table-notice");
            notice.textContent = "Bot 2 declares a marriage ♥: +100";
            notice.hidden = false;
        }"""
    )

    after = page.eval_on_selector_all(cards, "cs => cs.map(c => c.getBoundingClientRect().top)")
    assert page.locator("#table-notice").is_visible()
    assert after == before


def open_replay(pages: Any, e2e_server: Any, screen: dict[str, int], locale: str = "en-GB"):
    page = pages.new(locale=locale, **screen)
    username = sign_up(page)
    out = e2e_server.manage_output("shell", "-c", FINISHED.format(username=username))
    table_id = out.strip().splitlines()[-1]
    page.goto(f"/tables/{table_id}/replay/")
    page.wait_for_selector("#replay-root .open-hand .mini")
    return page


def end_of_a_played_deal(page: Any) -> None:
    """Step to the last step of the first deal that was played out (made or failed)."""
    sheet = page.evaluate(
        '() => JSON.parse(document.getElementById("replay-config").textContent).sheet'
    )
    deal = next(i for i, row in enumerate(sheet) if row["outcome"] in ("made", "failed"))
    page.select_option("#replay-deal", str(deal))
    page.wait_for_function(
        "n => document.getElementById('replay-root').dataset.deal === n", arg=str(deal)
    )
    page.click("button:has-text('»')")
    page.locator(".deal-summary").wait_for()


@SCREENS
def test_the_result_of_a_deal_says_what_the_declarer_took(pages, e2e_server, screen):
    page = open_replay(pages, e2e_server, screen, locale="ru-RU")
    end_of_a_played_deal(page)

    summary = page.locator(".deal-summary")

    assert summary.is_visible()
    assert re.search(r"взял \d+ из \d+", summary.inner_text()), summary.inner_text()


@SCREENS
def test_the_bidding_of_the_deal_is_listed_beside_the_table(pages, e2e_server, screen):
    page = open_replay(pages, e2e_server, screen)
    end_of_a_played_deal(page)

    bids = page.locator(".bidding-history li")

    assert bids.count() >= 1 and bids.first.is_visible()
    assert re.fullmatch(r".+: (\d+|Pass)", bids.first.inner_text())


@SCREENS
def test_the_replay_draws_every_hand_with_cards_large_enough_to_read(pages, e2e_server, screen):
    page = open_replay(pages, e2e_server, screen)

    sizes = page.eval_on_selector_all(
        "#replay-root .open-hand .mini",
        """cs => cs.map(c => {
            const card = c.getBoundingClientRect();
            const seat = c.closest(".seat").getBoundingClientRect();
            return { width: card.width, inside: card.left >= seat.left && card.right <= seat.right };
        })""",
    )

    assert min(s["width"] for s in sizes) >= 32
    assert all(s["inside"] for s in sizes)


@SCREENS
def test_the_lobby_describes_every_bot_level_its_menu_offers_by_the_same_name(pages, screen):
    page = pages.new(locale="ru-RU", **screen)
    sign_up(page)
    page.goto("/play/")

    offered = page.eval_on_selector_all("#quick-level option", "os => os.map(o => o.textContent)")
    described = page.locator(".bot-levels li strong").all_inner_texts()

    assert len(described) == len(offered) == 4
    assert all(o.lower().startswith(d.lower()) for o, d in zip(offered, described, strict=True))


@SCREENS
def test_the_match_length_label_stays_beside_its_menu(pages, screen):
    page = pages.new(**screen)
    sign_up(page)
    page.goto("/play/")

    label = page.locator("label[for=quick-deals]").bounding_box()
    menu = page.locator("#quick-deals").bounding_box()

    assert label is not None and menu is not None
    assert abs((label["y"] + label["height"] / 2) - (menu["y"] + menu["height"] / 2)) < 4
    assert 0 <= menu["x"] - (label["x"] + label["width"]) < 20


@SCREENS
def test_the_invite_link_has_a_copy_button_that_says_it_copied(pages, screen):
    page = pages.new(**screen)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    sign_up(page)
    page.goto("/play/")
    page.check("input[name=private]")
    page.click("#create-table")
    page.wait_for_url("**/tables/*/")

    page.click("#copy-invite")

    # The note shows once the clipboard's write (a promise) has settled.
    page.locator("#invite-copied").wait_for(state="visible", timeout=5000)
    assert page.evaluate("() => navigator.clipboard.readText()") == page.input_value("#invite-url")


@SCREENS
def test_play_again_after_a_match_starts_the_same_match_against_the_same_bots(pages, screen):
    page = pages.new(**screen)
    sign_up(page)
    quick_match(page, "3")
    first = page.url
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("form.resign button")
    # The match ends (the only person resigned) and the page shows how, with Play again.
    again = page.locator(".rematch-button:visible")
    again.wait_for()

    again.click()
    page.wait_for_url(lambda url: url != first and "/tables/" in url)
    page.wait_for_selector("#table-root .felt")

    assert page.locator(".table-bar .deal-no").inner_text() == "Deal 1 of 3"


SHEET_NUMBERS = """async () => {
    const { renderSheet } = await import("/static/js/sheet.js");
    const row = (deal, outcome, declarer, contract) => ({
        deal, outcome, dealer: 0, declarer, contract, bid: contract, golden: false, dark: false,
        deltas: [0, 0, 0], scores: [0, 0, 0], bolts: [0, 0, 0], barrel: null, lines: [], notes: [],
    });
    const sheet = [row(0, "made", 1, 100), row(1, "redeal", null, null), row(2, "failed", 2, 110)];
    const table = renderSheet(sheet, { players: 3, name: (s) => `Seat ${s + 1}`, t: (k) => k, open: new Set() });
    document.querySelector("#table-root").append(table);
    return [...table.querySelectorAll("tbody.deal-row .sheet-toggle")].map((b) => b.textContent);
}"""


@SCREENS
def test_the_score_sheet_numbers_a_redeal_as_the_deal_dealt_again(pages, screen):
    page = pages.new(**screen)
    sign_up(page)
    quick_match(page, "3")

    assert page.evaluate(SHEET_NUMBERS) == ["1", "2", "2"]
