"""Playing in the browser: a new player against bots, a whole match to its replay, two
people at one table."""

import json
from pathlib import Path

import pytest

from tests.e2e.steps import (
    act_once,
    open_table_from_lobby,
    play_against_bots,
    play_until,
    sign_up,
    state,
)

pytestmark = pytest.mark.timeout(600)


def test_a_new_player_plays_a_whole_deal_against_bots_by_clicking(pages):
    page = pages.new()
    sign_up(page)
    play_against_bots(page)

    play_until(page, lambda s: s["rows"] >= 1)

    assert page.locator("table.sheet tbody.deal-row").count() >= 1


def test_only_legal_cards_are_clickable(pages):
    page = pages.new()
    sign_up(page)
    play_against_bots(page)
    play_until(page, lambda s: s["phase"] == "play" and s["myTurn"])

    clickable = page.eval_on_selector_all(".hand button.card", "cs => cs.map(c => c.dataset.card)")
    legal = page.evaluate(
        "() => window.thousandTable.state.view.legal.filter(a => a.type === 'play').map(a => a.card)"
    )

    assert sorted(clickable) == sorted(legal)


def test_a_whole_match_against_fast_bots_ends_and_its_replay_passes_the_fairness_check(pages):
    """A short match (no barrel, first to 300) opened from the lobby, two bots seated
    from the table page; then the replay: every deal checked, every hand shown."""
    page = pages.new()
    sign_up(page)
    open_table_from_lobby(page, preset="simple", target=300)
    for _ in range(2):
        page.click("#add-bot")
    page.click("#start-table")
    page.wait_for_selector("#table-root .felt")

    play_until(page, lambda s: s["over"], limit=20_000)
    assert page.locator("form.resign").is_hidden()  # nothing left to resign from
    page.click(".match-over a.button")
    page.wait_for_selector("#fair-summary[data-result]")
    assert page.get_attribute("#fair-summary", "data-result") == "ok"
    assert page.locator(".fair-list [data-ok=false]").count() == 0

    for _ in range(5):
        page.click("button[data-step=forward]")
    page.wait_for_function("() => document.getElementById('replay-root').dataset.step === '5'")
    assert page.locator(".seat .open-hand .mini").count() > 10

    with page.expect_download() as download:
        page.click("#record-download")
    record = json.loads(Path(download.value.path()).read_text())
    assert record["format"] == "thousand/1" and all("dealing" in d for d in record["deals"])


def test_two_people_and_a_bot_see_only_their_own_cards_take_turns_and_a_reload_restores_the_view(
    pages,
):
    alice, bob = pages.new(), pages.new()
    sign_up(alice)
    sign_up(bob)
    table_id = open_table_from_lobby(alice)
    bob.goto("/play/")
    bob.click(f"[data-table='{table_id}'] button:has-text('Join')")
    bob.wait_for_url(f"**/tables/{table_id}/")
    alice.wait_for_selector("#add-bot")  # the page reloaded with bob seated
    alice.click("#add-bot")
    alice.click("#start-table")
    for page in (alice, bob):
        page.wait_for_selector("#table-root .hand [data-card]")

    hands = [set(state(p)["hand"]) for p in (alice, bob)]
    shown = [
        set(p.eval_on_selector_all("[data-card]", "cs => cs.map(c => c.dataset.card)"))
        for p in (alice, bob)
    ]
    assert not hands[0] & hands[1]
    assert not shown[0] & hands[1] and not shown[1] & hands[0]

    acted = {0: 0, 1: 0}
    for _ in range(400):
        if min(acted.values()) >= 2:
            break
        for who, page in enumerate((alice, bob)):
            now = state(page)
            if now["myTurn"] and act_once(page):
                acted[who] += 1
                page.wait_for_function(
                    "v => Number(document.getElementById('table-root').dataset.version) > v",
                    arg=now["version"],
                )
        alice.wait_for_timeout(40)
    assert min(acted.values()) >= 2, acted

    before = state(bob)
    bob.reload()
    bob.wait_for_function(
        "v => Number(document.getElementById('table-root').dataset.version) >= v",
        arg=before["version"],
    )
    after = state(bob)
    if after["version"] == before["version"]:
        assert after["hand"] == before["hand"] and after["rows"] == before["rows"]
    elif after["rows"] == before["rows"]:
        # Others moved within the deal. Bob did not act, so he lost no card; he may have
        # gained the talon (he won the bidding) or the card a declarer gave him.
        gained = set(after["hand"]) - set(before["hand"])
        assert set(before["hand"]) <= set(after["hand"]) and len(gained) <= 3
        assert not gained & set(state(alice)["hand"])


def test_the_page_reconnects_by_itself_and_carries_on(pages):
    page = pages.new()
    sign_up(page)
    play_against_bots(page)
    play_until(page, lambda s: s["myTurn"])
    before = state(page)

    page.evaluate("() => window.thousandTable.socket.ws.close()")
    page.wait_for_function("() => !window.thousandTable.state.online")
    page.wait_for_function("() => window.thousandTable.state.online")

    after = play_until(page, lambda s: s["version"] > before["version"])
    assert after["version"] > before["version"]


def test_a_card_can_be_chosen_and_played_with_the_keyboard_alone(pages):
    page = pages.new()
    sign_up(page)
    play_against_bots(page)
    play_until(page, lambda s: s["phase"] == "play" and s["myTurn"] and len(s["hand"]) >= 2)
    before = state(page)
    cards = page.eval_on_selector_all(".hand button.card", "cs => cs.map(c => c.dataset.card)")

    page.focus(".hand button.card")
    page.keyboard.press("ArrowRight" if len(cards) > 1 else "Home")
    chosen = page.evaluate("() => document.activeElement.dataset.card")
    page.keyboard.press("Enter")

    page.wait_for_function(
        "v => Number(document.getElementById('table-root').dataset.version) > v",
        arg=before["version"],
    )
    assert chosen in cards and chosen not in state(page)["hand"]


@pytest.mark.parametrize("players", [2, 4])
def test_two_and_four_player_tables_with_golden_and_dark_deals_play_through(pages, players):
    """The club preset: the golden round first (dark at 120), then dark offers; two
    players choose a talon, four have a resting dealer who scores the talon."""
    page = pages.new()
    sign_up(page)
    open_table_from_lobby(page, players=players, preset="club")
    for _ in range(players - 1):
        page.click("#add-bot")
    page.click("#start-table")
    page.wait_for_selector("#table-root .felt")

    play_until(page, lambda s: s["rows"] >= players + 1)

    rows = page.locator("table.sheet tbody.deal-row")
    assert rows.count() >= players + 1 and page.locator("table.sheet .badge.golden").count() >= 1
