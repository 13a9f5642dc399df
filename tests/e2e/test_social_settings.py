"""The privacy form of the Friends page in the browser: a person who chooses that nobody
sees him online is shown offline to a follower while his page is open; the form fits a
desktop (1280x800) and a phone (390x844), in English and in Russian."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.steps import sign_up

pytestmark = pytest.mark.timeout(300)

SIZES = [
    ({"width": 1280, "height": 800}, "en-GB", "Who may see that I am online and at which table"),
    ({"width": 390, "height": 844}, "ru-RU", "Кто может видеть, что я в сети и за каким столом"),
]


@pytest.mark.parametrize(("size", "locale", "legend"), SIZES, ids=["desktop-en", "phone-ru"])
def test_a_person_seen_by_nobody_is_offline_on_his_followers_friends_list(
    pages: Any, size: dict[str, int], locale: str, legend: str
) -> None:
    ann, bob = pages.new(**size, locale=locale), pages.new(**size, locale=locale)
    sign_up(ann)
    bob_name = sign_up(bob)
    ann.goto(f"/players/{bob_name}/")
    ann.click(".social-actions button[type=submit]")  # follow
    bob.goto("/social/friends/")  # his page holds a social socket: online
    ann.goto("/social/friends/")
    ann.wait_for_selector(".friend.online")

    form = bob.locator("#social-settings")
    assert form.locator("legend", has_text=legend).is_visible()
    bob.check("input[name=presence][value=nobody]")
    bob.click("#social-settings button[type=submit]")
    bob.wait_for_selector(".messages")
    ann.goto("/social/friends/")

    assert ann.locator(".friend").evaluate("li => li.classList.contains('online')") is False
    assert bob.is_checked("input[name=presence][value=nobody]")
    assert bob.locator("#social-settings button[type=submit]").is_visible()
    assert bob.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    box = bob.locator("#social-settings fieldset").first.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= size["width"]
    bob.screenshot(path=f"/tmp/doors-privacy-{locale}.png", full_page=True)
