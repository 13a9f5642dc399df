"""The social app in the browser: two people who just signed up follow each other,
sit at one table and talk; a spectator talks without reaching them; what they type is
shown as text; the same on a phone (390 px)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.steps import open_table_from_lobby, sign_up, visit

pytestmark = pytest.mark.timeout(300)

PHONE = {"width": 390, "height": 844}
XSS = '<img src=x onerror="window.__hacked=1">'


def _say(page: Any, text: str) -> None:
    page.fill("#chat-text", text)
    page.click(".chat-form button[type=submit]")


def _lines(page: Any) -> list[str]:
    return page.eval_on_selector_all(".chat-lines .chat-text", "ls => ls.map(l => l.textContent)")


def _table_for_two(pages: Any, size: dict[str, int]) -> tuple[Any, Any, int]:
    ann, bob = pages.new(**size), pages.new(**size)
    sign_up(ann)
    bob_name = sign_up(bob)
    # Ann follows Bob from his page; her Friends list shows him online.
    ann.goto(f"/players/{bob_name}/")
    ann.click(".social-actions button[type=submit]")
    ann.goto("/social/friends/")
    ann.wait_for_selector(".friend.online")  # bob's page holds a social socket
    table_id = open_table_from_lobby(ann, players=3)
    bob.goto(f"/tables/{table_id}/")
    bob.click("#join-table")
    visit(ann, f"/tables/{table_id}/")  # her page may be reloading itself: Bob sat down
    ann.click("#add-bot")
    ann.click("#start-table")
    for page in (ann, bob):
        visit(page, f"/tables/{table_id}/")
        page.wait_for_selector("#table-root .felt")
        page.wait_for_selector("#chat:not([hidden]) .chat-form:not([hidden])")
    return ann, bob, table_id


@pytest.mark.parametrize("size", [{"width": 1280, "height": 900}, PHONE], ids=["desktop", "phone"])
def test_two_players_talk_and_a_spectator_does_not_reach_them(
    pages: Any, size: dict[str, int]
) -> None:
    ann, bob, table_id = _table_for_two(pages, size)
    _say(ann, "good luck " + XSS)
    bob.wait_for_function("() => document.querySelectorAll('.chat-lines li').length >= 1")
    assert _lines(bob) == ["good luck " + XSS]
    assert bob.evaluate("() => window.__hacked") is None
    assert bob.query_selector(".chat-lines img") is None

    watcher = pages.new(**size)
    sign_up(watcher)
    watcher.goto(f"/tables/{table_id}/")
    watcher.wait_for_selector("#chat:not([hidden]) .chat-form:not([hidden])")
    assert _lines(watcher) == ["good luck " + XSS]
    _say(watcher, "ann has both aces")
    watcher.wait_for_function("() => document.querySelectorAll('.chat-lines li').length >= 2")
    _say(bob, "thanks")
    ann.wait_for_function("() => document.querySelectorAll('.chat-lines li').length >= 2")
    assert _lines(ann) == ["good luck " + XSS, "thanks"]  # never the spectator's line

    # Nothing scrolls sideways on a phone.
    for page in (ann, bob, watcher):
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
        if size == PHONE:
            page.screenshot(path=f"/tmp/social-chat-phone-{id(page)}.png", full_page=True)


@pytest.mark.parametrize("size", [{"width": 1280, "height": 900}, PHONE], ids=["desktop", "phone"])
def test_a_challenge_from_the_friends_list_accepted_seats_both_at_one_table(
    pages: Any, size: dict[str, int]
) -> None:
    ann, bob = pages.new(**size), pages.new(**size)
    sign_up(ann)
    bob_name = sign_up(bob)
    ann.goto(f"/players/{bob_name}/")
    ann.click(".social-actions button[type=submit]")  # follow
    ann.goto("/social/friends/")
    ann.click(".friend .actions a")  # Play me
    assert ann.input_value("#id_to1") == bob_name
    ann.check("input[name=players][value='2']")
    bob.goto("/play/")
    bob.wait_for_timeout(300)  # bob's social socket is open
    ann.click("#create-table")
    ann.wait_for_url("**/social/friends/")
    ann.wait_for_selector(".social-notice")  # "waiting for the answers", with Cancel
    notice = bob.wait_for_selector(".social-notice")
    assert "challenges you" in notice.text_content()
    if size == PHONE:
        bob.screenshot(path="/tmp/social-challenge-phone.png")
        assert bob.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    bob.click(".social-notice-actions button:not(.secondary)")  # Accept
    for page in (ann, bob):
        page.wait_for_url("**/tables/*/")
        page.wait_for_selector("#table-root .felt")
    assert ann.url == bob.url


@pytest.mark.parametrize("size", [{"width": 1280, "height": 800}, PHONE], ids=["desktop", "phone"])
def test_a_challenge_notice_names_its_rules_in_ukrainian(pages: Any, size: dict[str, int]) -> None:
    ann, bob = pages.new(locale="uk-UA", **size), pages.new(locale="uk-UA", **size)
    sign_up(ann)
    bob_name = sign_up(bob)
    ann.goto(f"/social/challenge/?to={bob_name}")
    ann.check("input[name=players][value='2']")
    ann.check("input[name=preset][value='classic']")
    bob.goto("/play/")
    bob.wait_for_timeout(300)  # bob's social socket is open
    ann.click("#create-table")

    notice = bob.wait_for_selector(".social-notice p")

    assert notice.is_visible() and "Класика" in notice.text_content()
