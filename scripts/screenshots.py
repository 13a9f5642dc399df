#!/usr/bin/env python3
"""Screenshots of the game pages for docs/screenshots/ (``make screenshots``).

Starts the same live server as the browser tests (tests/e2e/live.py), plays as a new
player would in Chromium, and writes PNGs of the lobby, a table mid-deal, the score sheet,
a replay, a leaderboard and a player page, each on a desktop (1280×900) and a phone
(390×844) screen; then a club
evening (docs/tournaments.md): the organiser's admin list during a round, and a player's
table after the round's time limit ended it. ``--only tournaments`` takes just those two.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.e2e.live import LiveServer  # noqa: E402
from tests.e2e.steps import (  # noqa: E402
    PASSWORD,
    act_once,
    open_table_from_lobby,
    play_against_bots,
    seed_rated_matches,
    sign_in,
    sign_up,
    state,
)

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


def shoot(
    page: Any, out: Path, name: str, *, full: bool = False, element: str | None = None
) -> None:
    path = out / f"{name}.png"
    page.wait_for_timeout(300)  # let the last update settle
    if element:
        page.locator(element).first.screenshot(path=str(path))
    else:
        page.screenshot(path=str(path), full_page=full)
    print(f"wrote {path}")


def twin(browser: Any, base_url: str, storage: Any, viewport: dict[str, int]) -> Any:
    """A second window of the same person, sized like a phone or a desktop."""
    context = browser.new_context(
        base_url=base_url, storage_state=storage, viewport=viewport, locale="en-GB"
    )
    return context.new_page()


def play_until(page: Any, done: Any, limit: int = 3000) -> None:
    for _ in range(limit):
        now = state(page)
        if done(now):
            return
        if not (now["myTurn"] and act_once(page)):
            page.wait_for_timeout(60)
        else:
            page.wait_for_timeout(30)
    raise RuntimeError(f"gave up waiting: {state(page)}")


def mid_trick(page: Any) -> bool:
    return bool(
        page.evaluate(
            """() => {
              const r = document.getElementById("table-root");
              return r.dataset.phase === "play" && r.dataset.myTurn === "true"
                && document.querySelectorAll(".trick .played").length >= 1
                && document.querySelectorAll(".hand [data-card]").length <= 6
                && document.querySelectorAll(".hand [data-card]").length >= 3;
            }"""
        )
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    parser.add_argument("--only", choices=("all", "games", "tournaments"), default="all")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    started = time.monotonic()
    with LiveServer(bot_delay="0.02") as server, sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
        )
        if args.only in ("all", "games"):
            game_pages(browser, server, out)
        if args.only in ("all", "tournaments"):
            club_evening(browser, server, out)
        browser.close()
    print(f"done in {time.monotonic() - started:.0f} s")
    return 0


def game_pages(browser: Any, server: Any, out: Path) -> None:
    if True:
        # Two other people open tables, so that the lobby has something to show.
        for preset in ("igrafan", "club"):
            other = browser.new_context(
                base_url=server.url, viewport=DESKTOP, locale="en-GB"
            ).new_page()
            sign_up(other, f"{preset.capitalize()}Fan")
            other.goto("/play/")
            other.check(f"#preset-{preset}")
            if preset == "club":
                other.check("input[name=players][value='4']")
            other.click("#create-table")
            other.wait_for_url("**/tables/*/")
            other.context.close()

        context = browser.new_context(base_url=server.url, viewport=DESKTOP, locale="en-GB")
        page = context.new_page()
        sign_up(page, "Olena")
        page.goto("/play/")
        shoot(page, out, "lobby-desktop", full=True)
        storage = context.storage_state()
        phone = twin(browser, server.url, storage, PHONE)
        phone.goto("/play/")
        shoot(phone, out, "lobby-phone", full=True)

        table_id = play_against_bots(page)
        play_until(page, lambda s: s["rows"] >= 2 and mid_trick(page))
        shoot(page, out, "table-desktop")
        phone.goto(f"/tables/{table_id}/")
        phone.wait_for_selector("#table-root .felt")
        phone.wait_for_function(
            "() => document.getElementById('table-root').dataset.myTurn === 'true'"
        )
        shoot(phone, out, "table-phone")
        play_until(page, lambda s: s["rows"] >= 5)
        page.click("table.sheet tbody.deal-row:nth-of-type(2) .sheet-toggle")
        shoot(page, out, "sheet-desktop", element=".table-side")
        phone.reload()
        phone.wait_for_selector("table.sheet")
        phone.click("table.sheet tbody.deal-row:nth-of-type(2) .sheet-toggle")
        shoot(phone, out, "sheet-phone", element=".table-side")

        # A short match to its end (no barrel, first to 300), then its replay.
        table_id = open_table_from_lobby(page, preset="simple", target=300)
        for _ in range(2):
            page.click("#add-bot")
        page.click("#start-table")
        page.wait_for_selector("#table-root .felt")
        play_until(page, lambda s: s["over"])
        page.goto(f"/tables/{table_id}/replay/")
        page.wait_for_selector("#replay-root .felt")
        for _ in range(14):
            page.click("button[data-step=forward]")
        shoot(page, out, "replay-desktop", full=True)
        phone.goto(f"/tables/{table_id}/replay/")
        phone.wait_for_selector("#replay-root .felt")
        for _ in range(14):
            phone.click("button[data-step=forward]")
        shoot(phone, out, "replay-phone", full=True)

        # Rated matches behind her: the leaderboard (its default hides provisional
        # players and says so) and her player page with the rating chart.
        seed_rated_matches(server, "Olena")
        page.goto("/leaderboards/?bots=0")
        shoot(page, out, "leaderboard-desktop", full=True)
        phone.goto("/leaderboards/?provisional=1")
        shoot(phone, out, "leaderboard-phone", full=True)
        page.goto("/players/Olena/")
        shoot(page, out, "player-desktop", full=True)
        phone.goto("/players/Olena/")
        shoot(phone, out, "player-phone", full=True)


def club_evening(browser: Any, server: Any, out: Path) -> None:
    """A rated Swiss with a one-minute round limit: the admin list while round 1 plays,
    then a player's table page once the clock has ended it (the tournament panel)."""
    from datetime import UTC, datetime, timedelta

    server.manage(
        "createsuperuser", "--noinput", "--username", "Organiser", "--email", "o@example.com",
        DJANGO_SUPERUSER_PASSWORD=PASSWORD,
    )  # fmt: skip
    org = browser.new_context(base_url=server.url, viewport=DESKTOP, locale="en-GB").new_page()
    sign_in(org, "Organiser")
    org.goto("/admin/tournaments/tournament/add/")
    org.fill("#id_name", "Friday club evening")
    org.select_option("#id_format", "swiss")
    org.select_option("#id_preset", "classic")
    org.check("#id_rated")
    org.fill("#id_rounds", "2")
    org.fill("#id_round_minutes", "1")
    org.fill("#id_move_seconds", "5")
    org.fill("#id_break_seconds", "5")
    starts = datetime.now(UTC) + timedelta(hours=2)
    for field, when in (
        ("registration_opens_at", starts - timedelta(hours=1)),
        ("starts_at", starts),
    ):
        org.fill(f"#id_{field}_0", when.strftime("%Y-%m-%d"))
        org.fill(f"#id_{field}_1", when.strftime("%H:%M:%S"))
    org.click("input[name=_continue]")
    org.wait_for_url("**/change/")
    tid = int(org.url.rstrip("/").split("/")[-2])

    def act(action: str) -> None:
        org.goto("/admin/tournaments/tournament/")
        org.check(f"input[name=_selected_action][value='{tid}']")
        org.select_option("select[name=action]", action)
        org.click("button[name=index]")

    act("schedule")
    act("open_registration")
    player = browser.new_context(base_url=server.url, viewport=DESKTOP, locale="en-GB").new_page()
    sign_up(player, "Oksana")  # Olena is the games pages' player (make screenshots runs both)
    player.goto(f"/tournaments/{tid}/")
    player.click("button:text-is('Register')")
    for name in ("Mykola", "Darya", "Taras", "Irina", "Bohdan", "Sofia"):
        token = player.request.post(
            "/api/v1/auth/signup/", data={"username": name, "password": PASSWORD}
        ).json()["token"]
        player.request.post(
            f"/api/v1/tournaments/{tid}/register/", headers={"Authorization": f"Token {token}"}
        )
    org.goto("/admin/tournaments/announcement/add/")
    org.select_option("#id_tournament", str(tid))
    org.fill("#id_text", "Welcome! Tea and biscuits at the break.")
    org.click("input[name=_save]")
    act("start_now")
    player.click("a:text-is('Go to your table')", timeout=30_000)
    org.goto("/admin/tournaments/tournament/")
    org.wait_for_timeout(1000)
    shoot(org, out, "tournament-admin")
    player.wait_for_selector("#tournament-panel .panel-place", timeout=300_000)
    player.wait_for_selector("#tournament-next", timeout=120_000)
    shoot(player, out, "tournament-table")


if __name__ == "__main__":
    sys.exit(main())
