"""The social app's controls as a person sees them, at 1280×800 and on a phone at 390×844:
a chat control the server does not offer is not shown (chat off, a table that is not
his); a challenge's Cancel and Decline read as what they are and its notice names the
changed rules; a new chat line out of sight shows a count that brings the chat into
view; an old reminder reads in the reader's language."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.contrast import low_contrast
from tests.e2e.screens import SCREENS
from tests.e2e.steps import open_table_from_lobby, sign_up, visit

pytestmark = pytest.mark.timeout(300)

IN_VIEW = """(el) => {
  const box = el.getBoundingClientRect();
  return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight;
}"""


def _spectator_at_a_table(pages: Any, screen: dict[str, int]) -> Any:
    ann, watcher = pages.new(**screen), pages.new(**screen)
    sign_up(ann)
    sign_up(watcher)
    table_id = open_table_from_lobby(ann, players=3)
    watcher.goto(f"/tables/{table_id}/")
    watcher.wait_for_selector("#chat:not([hidden])")
    return watcher


@SCREENS
def test_a_spectator_never_sees_the_tables_own_chat_switch(pages: Any, screen: Any) -> None:
    watcher = _spectator_at_a_table(pages, screen)

    assert not watcher.locator(".table-chat-off").is_visible()


@SCREENS
def test_with_his_chat_off_a_person_sees_neither_the_box_nor_send(pages: Any, screen: Any) -> None:
    watcher = _spectator_at_a_table(pages, screen)
    watcher.check(".chat-off")
    watcher.wait_for_function("() => document.querySelector('.chat-form').hidden")

    shown = watcher.evaluate(
        "() => [getComputedStyle(document.querySelector('.chat-form')).display,"
        " document.querySelector('#chat-text').checkVisibility()]"
    )

    assert shown == ["none", False]


def _challenge_with_a_changed_target(pages: Any, screen: dict[str, int]) -> tuple[Any, Any]:
    """Ann challenges Bob to a match to 1200; both pages show the notice."""
    ann, bob = pages.new(**screen), pages.new(**screen)
    sign_up(ann)
    bob_name = sign_up(bob)
    ann.goto(f"/social/challenge/?to={bob_name}")
    ann.click(".options-box summary")
    ann.fill("input[name=opt_target]", "1200")
    ann.click("#create-table")
    ann.wait_for_url("**/social/friends/")
    ann.wait_for_selector(".social-notice button", state="visible")
    bob.goto("/social/friends/")
    bob.wait_for_selector(".social-notice button", state="visible")
    return ann, bob


@SCREENS
def test_the_challengers_cancel_is_readable(pages: Any, screen: Any) -> None:
    ann, _bob = _challenge_with_a_changed_target(pages, screen)

    assert low_contrast(ann, "#social-notices") == []


@SCREENS
def test_decline_does_not_look_like_accept(pages: Any, screen: Any) -> None:
    _ann, bob = _challenge_with_a_changed_target(pages, screen)

    looks = bob.eval_on_selector_all(
        ".social-notice-actions button",
        "bs => bs.map(b => getComputedStyle(b).backgroundColor)",
    )

    assert len(looks) == 2 and looks[0] != looks[1]


@SCREENS
def test_the_challenge_notice_names_the_changed_target(pages: Any, screen: Any) -> None:
    _ann, bob = _challenge_with_a_changed_target(pages, screen)

    assert bob.locator(".social-notice .changes", has_text="1200").is_visible()


@SCREENS
def test_a_new_line_out_of_sight_shows_a_count_that_brings_the_chat(
    pages: Any, screen: Any
) -> None:
    ann, bob = pages.new(**screen), pages.new(**screen)
    sign_up(ann)
    sign_up(bob)
    table_id = open_table_from_lobby(ann, players=2)
    bob.goto(f"/tables/{table_id}/")
    bob.click("#join-table")
    visit(ann, f"/tables/{table_id}/")
    ann.click("#start-table")
    for page in (ann, bob):
        visit(page, f"/tables/{table_id}/")
        page.wait_for_selector("#table-root .felt")
        page.wait_for_selector("#chat:not([hidden]) .chat-form:not([hidden])")
    ann.evaluate("() => window.scrollTo(0, 0)")
    bob.fill("#chat-text", "good luck")
    bob.click(".chat-form button[type=submit]")

    ann.locator(".chat-jump .chat-unread", has_text="1").wait_for(state="visible")
    ann.click(".chat-jump")

    assert ann.eval_on_selector("#chat-text", IN_VIEW)
