"""A whole duplicate evening in the browser (docs/duplicate.md).

The organiser schedules an unrated duplicate event in the admin site: two rounds of two
boards at tables of three. Four players register and check in on the event's page, one
of them adding his own seed to round 1's dealing after reading its commitment; the
seating fills each table's third seat with a bot. The players take every turn of their
seats in the browser (the first thing clickable, as ``steps.act_once`` does). After each
round its boards page shows every table's result of each board side by side and the
player's own line against the room; every table's replay checks every deal in the
browser; the standings list the four people by their total; the round sheet, the
printable standings and the CSV exports say the same.

The same cards by position are checked on the tables' records after the event, on the
live server's database by its own code: every table that dealt a round's *j*-th dealing
holds the same hand at each position from the dealer.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
import time
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import Pages
from tests.e2e.screens import DESKTOP, PHONE
from tests.e2e.steps import act_once, api_call, api_player, register, sign_up, state
from tests.e2e.test_club_evening import set_datetime
from tests.e2e.test_lobby_and_languages import OVERFLOW
from tests.e2e.test_tournament_pages import TICK, Organiser, organiser  # noqa: F401 (a fixture)

pytestmark = pytest.mark.timeout(600)

ROUND = 180_000  # ms: two boards at two tables, played a click at a time on a busy machine

# Every deal of every table of the event, by round and dealing: the hands by position
# from that deal's dealer (docs/duplicate.md "The same deals at every table").
DEALS = """
import json
from games.engine.replay import replay
from games.models import MatchResult
from tournaments.models import Assignment
out = []
for a in Assignment.objects.filter(round__tournament_id={tid}).exclude(table=None):
    record = MatchResult.objects.get(table_id=a.table_id).record
    n = record["options"]["players"]
    for deal, done in zip(record["deals"], replay(record)["deals"]):
        duplicate = deal["dealing"]["duplicate"]
        d = done["dealer"]
        out.append({{
            "round": a.round.number, "table": a.number, "index": duplicate["index"],
            "hands": [deal["hands"][(d + p) % n] for p in range(n)],
            "entrant_seeds": sorted(duplicate["entrant_seeds"].values()),
        }})
print(json.dumps(out))
"""


def schedule_duplicate(org: Organiser, name: str) -> int:
    """The organiser adds the event in the admin site: the duplicate format shows its
    rounds and its boards; check-in opens later. Scheduled, registration open."""
    page = org.page
    page.goto("/admin/tournaments/tournament/add/")
    page.fill("#id_name", name)
    page.select_option("#id_format", "duplicate")
    # The format's own settings are shown, the placement points (unused) are not.
    assert page.locator("#id_rounds").is_visible() and page.locator("#id_boards").is_visible()
    assert page.locator("#id_placement_points").is_hidden()
    for select, value in (
        ("players_per_table", "3"),
        ("preset", "classic"),
        ("duplicate_bots", "compare"),
    ):
        page.select_option(f"#id_{select}", value)
    page.uncheck("#id_rated")  # a duplicate event is unrated (docs/duplicate.md "Ratings")
    for field, text in (
        ("rounds", "2"),
        ("boards", "2"),
        ("break_seconds", "0"),
        ("check_in_minutes", "10"),
    ):
        page.fill(f"#id_{field}", text)
    starts = datetime.now(UTC) + timedelta(hours=2)
    set_datetime(page, "registration_opens_at", starts - timedelta(hours=1))
    set_datetime(page, "starts_at", starts)
    page.click("input[name=_continue]")
    page.wait_for_url(re.compile(r"/admin/tournaments/tournament/\d+/change/"))
    tid = int(page.url.rstrip("/").split("/")[-2])
    org.act(tid, "schedule")
    org.act(tid, "open_registration")
    return tid


def play_round(players: list[Any], tid: int, number: int) -> None:
    """Each player goes to his table from the event's page; all take their turns until
    every one of them has finished his match of the round's boards."""
    from playwright.sync_api import Error as PlaywrightError

    for page in players:
        page.goto(f"/tournaments/{tid}/")
        page.click("a:text-is('Go to your table')", timeout=TICK)
        page.wait_for_selector("#tournament-panel")
        assert f"round {number}" in page.inner_text("#tournament-panel")
    playing = list(players)
    deadline = time.monotonic() + ROUND / 1000
    while playing:
        assert time.monotonic() < deadline, [state(page) for page in playing]
        for page in list(playing):
            try:
                now = state(page)
                # Done when the tournament has the table's result: a match of boards may
                # end with the top score shared, with no winner for the board to show.
                if page.locator("#tournament-panel[data-status=finished]").count():
                    playing.remove(page)
                elif now["myTurn"]:
                    act_once(page)
            except PlaywrightError:  # the page reloads itself: the match has just ended
                continue
        players[0].wait_for_timeout(40)


def shoot(page: Any, path: Path) -> None:
    """The page at 1280×800 and at 390×844 (the test's tmp_path keeps them)."""
    for name, screen in (("1280", DESKTOP), ("390", PHONE)):
        page.set_viewport_size(screen)
        page.screenshot(path=str(path.with_name(f"{path.name}-{name}.png")), full_page=True)
    page.set_viewport_size(DESKTOP)


@pytest.mark.slow(seconds=150)
def test_a_duplicate_evening_compares_every_board_with_everyone_who_held_its_cards(
    organiser: Organiser,  # noqa: F811 (the fixture imported above)
    pages: Pages,
    e2e_server: Any,
    tmp_path: Path,
) -> None:
    tid = schedule_duplicate(organiser, "Duplicate evening")

    # -- four players register; one adds his seed to round 1 after reading its commitment --
    players = [pages.new() for _ in range(4)]
    names = [sign_up(page) for page in players]
    for page in players:
        page.goto(f"/tournaments/{tid}/")
        register(page)
    me = players[0]
    published = re.search(r"[0-9a-f]{64}", me.inner_text(".duplicate-commitment"))
    assert published, "round 1's commitment is shown before anybody is seated"
    assert me.locator(".round").count() == 0
    rules = me.inner_text("ul.tournament-rules")
    assert "Duplicate: 2 rounds of 2 boards" in rules and "placement points" not in rules
    me.fill("#entrant-seed", "my lucky seed 7")
    me.click("button:text-is('Add my seed')")
    me.locator(
        ".messages", has_text="Your seed is in: it is mixed into the round's deals."
    ).wait_for()
    assert "Your seed for it: my lucky seed 7." in me.inner_text("[data-live-part=you]")
    assert me.locator("#entrant-seed").count() == 0  # once a round

    # -- check-in opens (the organiser widens the window); everyone checks in; the start ----
    organiser.page.goto(f"/admin/tournaments/tournament/{tid}/change/")
    organiser.page.fill("#id_check_in_minutes", "180")
    organiser.page.click("input[name=_save]")
    for page in players:
        page.click("button:text-is('Check in')", timeout=TICK)
    shoot(me, tmp_path / "event-before")
    assert "Started: 1." in organiser.act(tid, "start_now")

    # -- round 1: the tables play; the player is sent to the round's boards -------------------
    play_round(players, tid, 1)
    me.wait_for_selector("#tournament-boards", timeout=TICK)  # once every table is done
    shoot(me, tmp_path / "table-after-round-1")
    me.click("#tournament-boards")
    me.wait_for_selector("#round-boards")
    boards_page = me.inner_text("body")
    seed = re.search(
        r"Round seed ([0-9a-f]{64}), committed before the seating as ([0-9a-f]{64})", boards_page
    )
    assert seed and seed.group(2) == published.group(0)
    assert hashlib.sha256(bytes.fromhex(seed.group(1))).hexdigest() == published.group(0)

    # -- round 2 -------------------------------------------------------------------------------
    play_round(players, tid, 2)
    watcher = pages.new()
    watcher.goto(f"/tournaments/{tid}/")
    watcher.wait_for_selector(".status strong:text-is('Finished')", timeout=TICK)
    assert watcher.locator(".duplicate-commitment").count() == 0  # no round 3 to seed

    # -- the boards: every table's result side by side, the player's line against the room ---
    tables = {1: 0, 2: 0}
    for number in (1, 2):
        me.goto(f"/tournaments/{tid}/rounds/{number}/boards/")
        boards = me.locator("section.board")
        assert boards.count() == 2
        tables[number] = len(
            set(me.eval_on_selector_all("tr.board-row", "rows => rows.map(r => r.dataset.table)"))
        )
        for b in range(boards.count()):
            rows = boards.nth(b).locator("tr.board-row")
            cells = rows.evaluate_all("rs => rs.map(r => [r.dataset.position, r.dataset.table])")
            # Every table of the round, once at each of its three positions.
            assert sorted(cells) == sorted(
                [str(p), str(t)] for p in range(3) for t in range(1, tables[number] + 1)
            )
        mine = me.locator("li.my-board").all_inner_texts()
        assert len(mine) == 2 and all(
            re.match(
                r"Board \d: you took -?\d+( as declarer of \d+)? where the room averaged -?\d+: \d+%\.",
                line,
            )
            or "nobody else held these cards" in line
            for line in mine
        ), mine
        assert me.locator("tr.board-row.mine").count() == 2
        shoot(me, tmp_path / f"boards-{number}")
        me.set_viewport_size(PHONE)  # the tables scroll inside the page, the page does not
        assert me.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
        me.set_viewport_size(DESKTOP)
    assert tables == {1: 2, 2: 2}  # four players: two tables of two and a bot each round

    # -- every table's replay: the browser's fair-dealing check passes for every deal --------
    watcher.goto(f"/tournaments/{tid}/")
    replays = watcher.eval_on_selector_all(
        ".round a:text-is('Replay')", "as => as.map(a => a.href)"
    )
    assert len(replays) == 4
    for url in replays:
        watcher.goto(url)
        watcher.wait_for_selector("#fair-summary[data-result]:not([data-result=''])")
        assert watcher.get_attribute("#fair-summary", "data-result") == "ok", watcher.inner_text(
            "#fair-list"
        )
        assert watcher.locator("#fair-list li.fair-result.ok").count() >= 2
        assert watcher.locator("#fair-list li.failed").count() == 0
        assert "one secret round seed" in watcher.inner_text(".fairness .help")
    shoot(watcher, tmp_path / "replay")

    # -- the same cards by position at every table that dealt the same dealing ---------------
    printed = e2e_server.manage_output("shell", "-c", DEALS.format(tid=tid))
    deals = json.loads(printed.strip().splitlines()[-1])  # after the shell's own greeting
    held: dict[tuple[int, int], dict[int, Any]] = defaultdict(dict)
    for deal in deals:
        held[deal["round"], deal["index"]][deal["table"]] = deal["hands"]
    for number in (1, 2):
        assert len(held[number, 0]) == 2  # both tables dealt the round's first dealing
    for (number, index), hands in held.items():
        assert len({json.dumps(h) for h in hands.values()}) == 1, (number, index, hands)
    assert all("my lucky seed 7" in deal["entrant_seeds"] for deal in deals if deal["round"] == 1)

    # -- the standings: the four people, by total; the CSV and the printable page agree ------
    watcher.goto(f"/tournaments/{tid}/")
    shoot(watcher, tmp_path / "event-finished")
    watcher.set_viewport_size(PHONE)
    overflow = watcher.evaluate(OVERFLOW)
    assert not overflow["wide"] and overflow["scroll"] <= PHONE["width"], overflow
    watcher.set_viewport_size(DESKTOP)
    shown = watcher.eval_on_selector_all(
        "table.standings tbody tr",
        "rows => rows.map(r => [r.cells[0].innerText, r.cells[1].innerText, r.cells[2].innerText])",
    )
    assert sorted(name for _rank, name, _points in shown) == sorted(names)
    totals = [int(points) for _rank, _name, points in shown]
    assert totals == sorted(totals, reverse=True)
    rows = list(
        csv.DictReader(io.StringIO(watcher.request.get(f"/tournaments/{tid}/standings.csv").text()))
    )
    assert [[r["rank"], r["player"], r["points"]] for r in rows] == shown
    assert all(r["matches"] == "4" for r in rows)  # two boards in each of two rounds
    results = list(
        csv.DictReader(io.StringIO(watcher.request.get(f"/tournaments/{tid}/results.csv").text()))
    )
    assert {r["finished_by"] for r in results} == {"deals"} and len(results) == 12

    watcher.click("#print-standings")
    watcher.wait_for_selector("#standings-sheet")
    printed = watcher.inner_text("table.sheet")
    assert all(name in printed for name in names) and "Bot" not in printed
    watcher.goto(f"/tournaments/{tid}/")
    watcher.click(".round a.round-sheet-link >> nth=-1")  # round 1: the rounds go newest first
    watcher.wait_for_selector("#round-sheet")
    sheet = watcher.inner_text("table.sheet")
    assert all(name in sheet for name in names)


def test_a_half_typed_seed_survives_the_page_drawing_itself_again(
    organiser: Organiser,  # noqa: F811 (the fixture imported above)
    pages: Pages,
) -> None:
    """Another player registers while an entrant types his seed: the page draws its live
    parts again (the entrants, his entry with the seed form) and keeps what he typed."""
    tid = schedule_duplicate(organiser, "Duplicate, half-typed")
    page = pages.new()
    sign_up(page)
    page.goto(f"/tournaments/{tid}/")
    register(page)
    page.fill("#entrant-seed", "half a se")

    _name, token = api_player(page)
    api_call(page, token, "POST", f"/api/v1/tournaments/{tid}/register/")
    page.locator("h2#entrants", has_text="(2)").wait_for(timeout=TICK)

    assert page.input_value("#entrant-seed") == "half a se"
    assert page.evaluate("document.activeElement.id") == "entrant-seed"
