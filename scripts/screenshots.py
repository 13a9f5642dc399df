#!/usr/bin/env python3
"""Screenshots of the game pages for docs/screenshots/ (``make screenshots``).

Starts the same live server as the browser tests (tests/e2e/live.py), plays as a new
player would in Chromium, and writes PNGs of the lobby, a table mid-deal, the score sheet,
a replay, a leaderboard and a player page, each on a desktop (1280×900) and a phone
(390×844) screen; then a club
evening (docs/tournaments.md): the organiser's admin list during a round, and a player's
table after the round's time limit ended it. ``--only tournaments`` takes just those two;
then a club (docs/clubs.md): its page, a season's table and its organiser's scoped admin,
each at both sizes (``--only clubs``).
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
    parser.add_argument("--only", choices=("all", "games", "tournaments", "clubs"), default="all")
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
        if args.only in ("all", "clubs"):
            club_pages(browser, server, out)
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


# A club with a season of six played evenings, a recurring evening and its coming
# occurrences, written on the live server's database by its own services: each evening is
# made by the organiser, its members register, it is started, and every table is played to
# its end (the people's moves chosen as the basic bot would, tests/games/helpers.py), round
# after round, at that week's Thursday (the tournaments' clock is given as ``now``), so the
# admin's lists show real entrants, rounds and tables, and the season table real results.
# Prints the club's slug and the season's id.
CLUB = """
import random
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo
from django.conf import settings
from django_otp.oath import totp
from django.utils import timezone
settings.GAMES_SCHEDULER = "manual"  # the tables' bot turns and clocks wait for this script
settings.GAMES_BOT_DELAY = 0
from accounts.models import User
from accounts.services import two_factor
from clubs import series, services
from games.models import Table
from tests.games.helpers import committed, play_to_end
from tournaments import services as tournaments
from tournaments.models import Assignment, Tournament
names = ["Marta", "Andrii", "Oksana K.", "Bohdan", "Iryna", "Taras", "Sofiia", "Dmytro",
         "Nadiia", "Yurii", "Halyna", "Petro"]
people = []
for name in names:
    user = User.objects.create_user(username=name.replace(" ", "").replace(".", ""),
                                    password="{password}", display_name=name)
    people.append(user)
founder, organiser = people[0], people[1]
club = services.club_create(
    user=founder, name="Kyiv Thursday Thousand", slug="kyiv-thursday", time_zone="Europe/Kyiv",
    languages=["uk", "ru", "en"], access="ask",
    description="Thousand every Thursday at 19:00 in the café on Khreshchatyk, and online "
    "when it rains. Beginners welcome: we explain the barrel over tea.",
)
for user in people[1:]:
    services._add_member(club=club, user=user)
services.member_set_rights(user=founder, club=club, member=organiser, rights={{"events"}})
services.member_set_rights(user=founder, club=club, member=people[2], rights={{"members", "moderation"}})
now = timezone.now().replace(second=0, microsecond=0)
kyiv = ZoneInfo("Europe/Kyiv")
local = now.astimezone(kyiv)
last_thursday = local.date() - timedelta(days=(local.weekday() - 3) % 7 or 7)
rng = random.Random(11)


def step(t, at):
    with committed():
        tournaments.tournament_step(tournament_id=t.pk, now=at)


for week in range(5, -1, -1):
    begins = datetime.combine(last_thursday - timedelta(weeks=week), time(19), tzinfo=kyiv)
    t = services.club_event_create(
        user=organiser, club=club, name=f"Thursday Swiss · {{begins.date().isoformat()}}",
        format="swiss", players_per_table=3, preset="simple", match_target=100, rated=False,
        rounds=2, move_seconds=30, break_seconds=0, check_in_minutes=0,
        registration_opens_at=begins - timedelta(days=2), starts_at=begins,
    ).tournament
    tournaments.tournament_schedule(tournament=t)
    tournaments.tournament_open_registration(tournament=t, now=begins - timedelta(days=1))
    for user in rng.sample(people, 3 * rng.randint(2, 3)):
        tournaments.registration_create(tournament=t, user=user, now=begins - timedelta(hours=3))
    minute = 0
    while t.status != Tournament.Status.FINISHED and minute < 600:
        step(t, begins + timedelta(minutes=minute))
        for a in Assignment.objects.filter(round__tournament=t, status=Assignment.Status.PLAYING):
            play_to_end(Table.objects.get(pk=a.table_id))
        minute += 5
        t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED, t.status
season = series.season_create(
    user=organiser, club=club, name="Autumn season", starts_on=(now - timedelta(weeks=7)).date(),
    ends_on=(now + timedelta(weeks=6)).date(), scheme="list", points=[10, 8, 6, 5, 4, 3, 2, 1],
    best=4,
)
series.season_table_store(season=season)
thursdays = series.series_create(
    user=organiser, club=club, name="Thursday Swiss", weekday=3, start_time=time(19, 0),
    days_ahead=14, format="swiss", players_per_table=3, preset="classic", rated=True, rounds=4,
)
series.series_materialize(series=thursdays)
# The admin asks its users for an address and a second factor: the organiser has both, and
# signs in there with one of his recovery codes.
organiser.email = "andrii@example.com"
organiser.save(update_fields=["email"])
key = two_factor.totp_begin(user=organiser)
_device, codes = two_factor.totp_confirm(
    user=organiser, device_id=key.pk, code=f"{{totp(key.bin_key):06d}}"
)
print(club.slug, season.pk, codes[0])
"""


def club_pages(browser: Any, server: Any, out: Path) -> None:
    """A club's page, its season table and its organiser's admin list (he holds the
    events right only: he sees his club's events, nothing else), on both sizes."""
    made = server.manage_output("shell", "-c", CLUB.format(password=PASSWORD)).split()
    slug, season, code = made[-3:]
    context = browser.new_context(base_url=server.url, viewport=DESKTOP, locale="en-GB")
    page = context.new_page()
    # He signs in on the admin's form, with his code (a session of the site without the
    # code would be sent there to give it).
    page.goto("/admin/login/?next=/admin/")
    page.fill("input[name=username]", "Andrii")
    page.fill("input[name=password]", PASSWORD)
    page.fill("input[name=otp_token]", code)
    page.click("input[type=submit]")
    page.wait_for_selector("#content-main", timeout=10_000)
    assert "/login" not in page.url, page.inner_text("body")
    phone = twin(browser, server.url, context.storage_state(), PHONE)
    for name, path in (
        ("club", f"/clubs/{slug}/"),
        ("season", f"/clubs/{slug}/seasons/{season}/"),
        ("club-admin", "/admin/tournaments/tournament/"),
    ):
        page.goto(path)
        shoot(page, out, f"{name}-desktop", full=True)
        phone.goto(path)
        shoot(phone, out, f"{name}-phone", full=True)


if __name__ == "__main__":
    sys.exit(main())
