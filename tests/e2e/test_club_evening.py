"""A whole club evening in the browser, on PostgreSQL and Redis with a real Celery
worker and beat.

An organiser schedules a rated Swiss of 7 entrants in the admin site (one of them a
walk-in entered there), announces it, the players check in (two in the browser, the
rest through the API), round 1 runs with a one-minute limit so that the clock cuts its
tables, the cut table's player lands on his result and then on his round 2 table, the
organiser amends one result (once wrongly: the error stays on the form), prints the
round sheet and exports the CSV; at the end the ratings of all players moved, every
table's replay opens, and the standings match the CSV.

Nobody plays a card: the clock plays for a person (five seconds a move, then a bot
for him while he is away), as at a real evening where people walk off.
"""

from __future__ import annotations

import csv
import io
import os
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from tests.e2e.conftest import Pages
from tests.e2e.stack import FullStack, postgres_and_redis
from tests.e2e.steps import (
    PASSWORD,
    admin_add_walk_in,
    api_call,
    api_player,
    register,
    sign_in,
    sign_up,
)

pytestmark = pytest.mark.timeout(900)

TICK = 60_000  # ms: a few ticks of the beat (every second here) on a slow, busy machine
ROUND = 240_000  # ms: a one-minute round, its last deal, the next round's break


@pytest.fixture(scope="module")
def evening_server() -> Iterator[FullStack]:
    postgres_and_redis("the club evening")
    with FullStack() as server:
        yield server


def admin_action(page: Any, changelist: str, pk: int, action: str) -> None:
    page.goto(changelist)
    page.check(f"input[name=_selected_action][value='{pk}']")
    page.select_option("select[name=action]", action)
    page.click("button[name=index]")


def set_datetime(page: Any, field: str, when: datetime) -> None:
    page.fill(f"#id_{field}_0", when.strftime("%Y-%m-%d"))
    page.fill(f"#id_{field}_1", when.strftime("%H:%M:%S"))


@pytest.mark.slow(seconds=150)
def test_a_club_evening_from_the_organisers_chair(browser: Any, evening_server: FullStack) -> None:
    pages = Pages(browser, evening_server.url)
    try:
        evening(pages, evening_server)
    except BaseException:
        print(evening_server.logs())
        raise
    finally:
        pages.close()
    assert not pages.errors, "\n".join(pages.errors)


def evening(pages: Pages, server: FullStack) -> None:
    organiser_name = f"organiser{os.getpid()}e"
    server.manage(
        "createsuperuser", "--noinput", "--username", organiser_name, "--email", f"{organiser_name}@example.com",
        DJANGO_SUPERUSER_PASSWORD=PASSWORD,
    )  # fmt: skip
    org = pages.new()
    sign_in(org, organiser_name)

    # -- the organiser schedules a rated Swiss of two rounds with a one-minute limit --------
    org.goto("/admin/tournaments/tournament/add/")
    org.fill("#id_name", "Club evening")
    org.select_option("#id_format", "swiss")
    assert org.locator("#id_duration_minutes").is_hidden()  # an arena's field
    org.select_option("#id_players_per_table", "3")
    org.select_option("#id_preset", "classic")
    org.check("#id_rated")
    org.fill("#id_rounds", "2")
    org.fill("#id_round_minutes", "1")
    org.fill("#id_move_seconds", "5")
    org.fill("#id_break_seconds", "5")
    org.fill("#id_check_in_minutes", "10")
    starts = datetime.now(UTC) + timedelta(hours=2)
    set_datetime(org, "registration_opens_at", starts - timedelta(hours=1))
    set_datetime(org, "starts_at", starts)
    org.click("input[name=_continue]")
    org.wait_for_url(re.compile(r"/admin/tournaments/tournament/\d+/change/"))
    tid = int(org.url.rstrip("/").split("/")[-2])
    changelist = "/admin/tournaments/tournament/"
    admin_action(org, changelist, tid, "schedule")
    admin_action(org, changelist, tid, "open_registration")

    # -- six players register: two on the page, four through the API ------------------------
    players = [pages.new(), pages.new()]
    names = [sign_up(p) for p in players]
    for p in players:
        p.goto(f"/tournaments/{tid}/")
        register(p)
    api = [api_player(org) for _ in range(4)]
    for _name, token in api:
        api_call(org, token, "POST", f"/api/v1/tournaments/{tid}/register/")
    names += [name for name, _token in api]

    # -- the organiser announces; the players see it on the page and in the header -----------
    org.goto("/admin/tournaments/announcement/add/")
    org.select_option("#id_tournament", str(tid))
    org.fill("#id_text", "Welcome! Tea and biscuits at the break.")
    org.click("input[name=_save]")
    for p in players:
        p.wait_for_selector("#notifications-unread:not([hidden])", timeout=TICK)
        p.wait_for_selector(
            ".announcements .note:has-text('Welcome! Tea and biscuits at the break.')",
            timeout=TICK,
        )

    # -- check-in opens (the organiser widens the window); everyone checks in ---------------
    org.goto(f"/admin/tournaments/tournament/{tid}/change/")
    org.fill("#id_check_in_minutes", "180")
    org.click("input[name=_save]")
    for p in players:
        p.click("button:text-is('Check in')", timeout=TICK)
        assert "Your entry: checked in." in p.inner_text("[data-live-part=you]")
    for _name, token in api:
        api_call(org, token, "POST", f"/api/v1/tournaments/{tid}/check-in/")

    # -- a walk-in: his account is made at the club, the organiser enters him -----------------
    walk_in, _token = api_player(org)
    names.append(walk_in)
    admin_add_walk_in(org, tid, walk_in)
    entrants = api_call(org, api[0][1], "GET", f"/api/v1/tournaments/{tid}/entrants/")
    assert sorted(e["name"] for e in entrants if e["status"] == "checked_in") == sorted(names)

    # -- the start; the round-1 table of a player on the page -------------------------------
    admin_action(org, changelist, tid, "start_now")
    me = players[0]
    me.click("a:text-is('Go to your table')", timeout=TICK)
    me.wait_for_selector("#tournament-panel")
    first_table = me.url
    assert "round 1" in me.inner_text("#tournament-panel")

    # The clock cuts the table: it lands on its result, then on the next round's table.
    me.wait_for_selector("#tournament-panel .panel-place", timeout=ROUND)
    # Above the board, how the match ended; in the panel, where he placed.
    assert "Ended by the time limit" in me.inner_text("#match-ending")
    assert "You placed" in me.inner_text("#tournament-panel .panel-place")
    assert "Waiting for" not in me.inner_text("#table-root")
    me.click("#tournament-next:text-is('Go to your next table')", timeout=ROUND)
    me.wait_for_url(lambda url: url != first_table)
    me.wait_for_selector("#tournament-panel")
    assert "round 2" in me.inner_text("#tournament-panel")

    # -- the organiser amends a round-1 result: once wrongly, then right --------------------
    org.goto(
        f"/admin/tournaments/assignment/?round__tournament__id__exact={tid}&status__exact=finished"
    )
    org.click("#result_list tbody tr th a")
    org.fill("#id_places", "1, 1, 5")
    org.click("input[name=_continue]")
    assert "Give each seat a place from 1 to 3" in org.inner_text(".errorlist")
    assert org.locator(".messagelist .success").count() == 0
    assert org.locator("#id_places").input_value() == "1, 1, 5"
    org.fill("#id_places", "3, 2, 1")
    org.fill("#id_reason", "scores copied wrongly")
    org.click("input[name=_continue]")
    org.wait_for_selector(".messagelist .success")

    # -- the round sheet prints every seat of round 1 -------------------------------------------
    org.goto(f"/tournaments/{tid}/")
    org.click(".round a.round-sheet-link >> nth=-1")  # the rounds are listed newest first
    org.wait_for_selector("#round-sheet")
    sheet = org.inner_text("table.sheet")
    assert all(name in sheet for name in names)

    # -- the evening ends by itself ---------------------------------------------------------------
    watcher = pages.new()
    watcher.goto(f"/tournaments/{tid}/")
    watcher.wait_for_selector(".status strong:text-is('Finished')", timeout=ROUND)

    # The standings on the page are the CSV's, and the CSV lists all seven.
    body = watcher.request.get(f"/tournaments/{tid}/standings.csv").text()
    rows = list(csv.DictReader(io.StringIO(body)))
    shown = watcher.eval_on_selector_all(
        "table.standings tbody tr",
        "rows => rows.map(r => [r.cells[0].innerText, r.cells[1].innerText, r.cells[2].innerText])",
    )
    assert [[r["rank"], r["player"], r["points"]] for r in rows] == shown
    assert sorted(r["player"] for r in rows) == sorted(names)
    results = list(
        csv.DictReader(io.StringIO(watcher.request.get(f"/tournaments/{tid}/results.csv").text()))
    )
    assert {r["finished_by"] for r in results} <= {"won", "time"} and "time" in {
        r["finished_by"] for r in results
    }

    # Every table's replay opens.
    replays = watcher.eval_on_selector_all(
        ".round a:text-is('Replay')", "as => as.map(a => a.href)"
    )
    tables = watcher.locator(".round ol.tables > li").count()
    assert len(replays) == tables >= 6
    for url in replays:
        response = watcher.goto(url)
        assert response is not None and response.status == 200, url
        watcher.wait_for_selector("#replay-root")

    # Every player's rating moved (the worker applied every result, the amendment too).
    moved = {}
    for name in names:
        history = api_call(org, api[0][1], "GET", f"/api/v1/players/{name}/ratings/?players=3")
        moved[name] = any(abs(change["delta"]) > 0 for change in history)
    assert all(moved.values()), moved
