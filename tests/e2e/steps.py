"""What a person does in the browser, as functions of a Playwright page: sign up, play
against bots, take a turn by asking the page what is clickable. Shared by the browser
tests and ``scripts/screenshots.py``."""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable
from typing import Any

PASSWORD = "a long e2e password 42"
CLICK_MS = 5_000  # a button seen a moment ago that does not take a click by then has gone
_names = itertools.count(1)


def sign_up(page: Any, name: str | None = None) -> str:
    """Create an account through the sign-up page; returns the username."""
    username = name or f"player{os.getpid()}x{next(_names)}"
    page.goto("/accounts/signup/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_url(lambda url: "/signup" not in url)
    return username


def visit(page: Any, path: str) -> None:
    """Go to ``path``. A waiting table's page loads itself again when a seat or its status
    changes; if that reload interrupts this navigation, the reload is the same page: wait
    for it to finish."""
    try:
        page.goto(path)
    except Exception as error:  # playwright's Error; the page module doesn't import it
        if "interrupted by another navigation" not in str(error):
            raise
        page.wait_for_load_state()


def register(page: Any) -> None:
    """Press Register on a tournament's page and wait until the page says the entry is
    taken (the form's answer may come after the click returns, on a busy machine)."""
    page.click("button:text-is('Register')")
    # The answer's page, not the old page's live redraw (which says the same a moment
    # earlier, while the answer is still on its way).
    page.locator(".messages", has_text="You are registered.").wait_for()


def play_against_bots(page: Any) -> int:
    page.goto("/play/")
    page.click("#play-bots")
    page.wait_for_url("**/tables/*/")
    page.wait_for_selector("#table-root .felt")
    return int(page.url.rstrip("/").rsplit("/", 1)[1])


def state(page: Any) -> dict[str, Any]:
    """What the table page shows, read from its root element."""
    return page.eval_on_selector(
        "#table-root",
        """root => ({
            version: Number(root.dataset.version),
            phase: root.dataset.phase,
            myTurn: root.dataset.myTurn === "true",
            rows: root.querySelectorAll("table.sheet tbody.deal-row").length,
            hand: [...root.querySelectorAll(".hand [data-card]")].map(c => c.dataset.card),
            over: root.dataset.over === "true",
        })""",
    )


def act_once(page: Any) -> bool:
    """Take one turn the way a person would: ask the page what is clickable and pick.
    Cards first (play, or give then a receiver); in the bidding, pass; a contract, the
    lowest. Returns False when nothing was clickable."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        cards = page.locator(".hand button.card:not([disabled])")
        if cards.count():
            # The left edge: in a hand the next card covers the rest, as a finger sees it.
            cards.first.click(position={"x": 8, "y": 24}, timeout=CLICK_MS)
            gives = page.locator(".actions .gives button")
            if gives.count():
                gives.first.click(timeout=CLICK_MS)
            return True
        for selector in (
            '.actions button[data-action*="\\"look\\""]',
            '.actions button[data-action*="\\"pass\\""]',
            ".actions .contract button.value",
            ".talon-choice",
            ".actions button[data-action]",
        ):
            button = page.locator(selector)
            if button.count():
                button.first.click(timeout=CLICK_MS)
                return True
    except PlaywrightTimeout:
        # The page was drawn again between looking and clicking (an update arrived, the
        # move clock ran out): the caller reads the page again.
        return False
    return False


def play_until(
    page: Any, done: Callable[[dict[str, Any]], bool], *, limit: int = 5000
) -> dict[str, Any]:
    """Act whenever it is this page's turn until ``done(state)``."""
    for _ in range(limit):
        now = state(page)
        if done(now):
            return now
        if now["myTurn"] and act_once(page):
            page.wait_for_function(
                """v => {
                    const r = document.getElementById("table-root");
                    return Number(r.dataset.version) > v || r.dataset.myTurn !== "true";
                }""",
                arg=now["version"],
            )
        else:
            page.wait_for_timeout(40)
    raise AssertionError(f"gave up after {limit} steps: {state(page)}")


def open_table_from_lobby(
    page: Any, *, players: int = 3, preset: str = "classic", target: int | None = None
) -> int:
    page.goto("/play/")
    page.check(f"input[name=players][value='{players}']")
    page.check(f"#preset-{preset}")
    if target is not None:
        page.click(".options-box summary")
        page.fill("input[name=opt_target]", str(target))
    page.click("#create-table")
    page.wait_for_url("**/tables/*/")
    return int(page.url.rstrip("/").rsplit("/", 1)[1])


def sign_in(page: Any, username: str, password: str = PASSWORD) -> None:
    page.goto("/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("form button[type=submit]")
    page.wait_for_url(lambda url: "/login" not in url)


def api_player(page: Any) -> tuple[str, str]:
    """A player who uses the REST API (another front end, a bot): signs up there; returns
    (username, API token). The page only lends its HTTP client: no cookie is involved."""
    username = f"api{os.getpid()}x{next(_names)}"
    response = page.request.post(
        "/api/v1/auth/signup/", data={"username": username, "password": PASSWORD}
    )
    assert response.status == 201, response.text()
    return username, response.json()["token"]


def api_call(page: Any, token: str, method: str, path: str) -> Any:
    response = page.request.fetch(path, method=method, headers={"Authorization": f"Token {token}"})
    assert response.ok, f"{method} {path}: {response.status} {response.text()}"
    return response.json()


SEED_MATCHES = """
from accounts.models import User
from ratings.services import rating_apply_result
from tests.factories import UserFactory
from tests.ratings.helpers import finished_match
me = User.objects.get(username="{username}")
others = [UserFactory(display_name="A rather long display name"), UserFactory()]
for seed in (1, 2):
    rating_apply_result(result_id=finished_match([me, *others], seed=seed).pk)
rating_apply_result(result_id=finished_match([me, others[0], "strong"], seed=3).pk)
"""


def seed_rated_matches(server: Any, username: str) -> None:
    """Three rated matches of three for ``username`` (two with people, one with a strong
    bot), written on the live server's database by its own code (tests.ratings.helpers),
    so that leaderboards, a player page and a profile have rows."""
    server.manage("shell", "-c", SEED_MATCHES.format(username=username))


def admin_add_walk_in(page: Any, tournament_id: int, username: str) -> None:
    """The organiser (signed in to the admin on ``page``) enters a player as a walk-in."""
    page.goto("/admin/tournaments/registration/add/")
    page.select_option("#id_tournament", str(tournament_id))
    page.click(".field-user .select2-selection")
    page.fill(".select2-search__field", username)
    page.click(f".select2-results__option:text-is('{username}')")
    page.click("input[name=_save]")
    page.wait_for_selector(".messagelist .success")
