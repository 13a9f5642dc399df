"""The replay page asks for the computer analysis, follows it and shows it."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.steps import sign_up

pytestmark = pytest.mark.timeout(300)

# E2E_SHOTS: a directory to keep the pages' screenshots in, to look at them.
SHOTS = Path(os.environ["E2E_SHOTS"]) if os.environ.get("E2E_SHOTS") else None


def shot(target: Any, name: str) -> None:
    if SHOTS is not None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        target.screenshot(
            path=str(SHOTS / name), **({"full_page": True} if name.endswith("-page.png") else {})
        )


FINISHED = """
from accounts.models import User
from tests.analysis.helpers import finished_table
finished_table(deals=2, users=[User.objects.get(username="{username}")])
"""

# A match the person played through the services (its dealings and log as a real one
# leaves them, which the table socket reads): the socket's test needs one.
PLAYED = """
from accounts.models import User
from tests.analysis.helpers import played_table
played_table(deals=1, user=User.objects.get(username="{username}"))
"""

RUNNING = """
from accounts.models import User
from analysis import services
from analysis.models import Analysis
table = User.objects.get(username="{username}").seats.get().table
Analysis.objects.filter(table=table).update(status="running", done={done}, total=20, result=None)
services._broadcast(table.pk, table.analysis.pk)
"""


def open_replay(pages: Any, e2e_server: Any, *, width: int = 1280, height: int = 900,
                locale: str = "en-GB", played: bool = False) -> tuple[Any, str]:  # fmt: skip
    page = pages.new(width=width, height=height, locale=locale)
    username = sign_up(page)
    if played:
        e2e_server.manage("shell", "-c", PLAYED.format(username=username), GAMES_SCHEDULER="manual")
    else:
        e2e_server.manage("shell", "-c", FINISHED.format(username=username))
    page.goto("/matches/")
    page.click("a[href$='/replay/']")
    page.wait_for_selector("#replay-deal option", state="attached")
    page.wait_for_selector("#analysis[data-status='none']")
    return page, username


def ask(page: Any) -> dict[str, Any]:
    page.click("#analysis-ask")
    page.wait_for_selector("#analysis[data-status='done']", timeout=120_000)
    return page.evaluate(
        "() => fetch(JSON.parse(document.getElementById('analysis-config').textContent).api_url)"
        ".then((r) => r.json())"
    )


def test_a_player_asks_for_the_analysis_and_the_replay_marks_each_decision(pages, e2e_server):
    page, _ = open_replay(pages, e2e_server)
    data = ask(page)
    decisions = data["result"]["decisions"]

    assert page.locator("#analysis-chart rect").count() == len(decisions) > 0
    # A bar takes the replay to its decision, which is marked with its label.
    last = decisions[-1]
    page.locator("#analysis-chart rect").nth(len(decisions) - 1).click()
    page.wait_for_function(
        "([d, s]) => document.getElementById('replay-root').dataset.deal === d"
        " && document.getElementById('replay-root').dataset.step === s",
        arg=[str(last["deal"]), str(last["action"] + 1)],
    )
    assert page.get_attribute("#analysis-mark", "data-label") == last["label"]
    assert page.locator(".analysis-seat").count() == 1
    shot(page, "analysis-desktop-page.png")

    # Stepping to a position with no analysed decision clears the mark.
    page.keyboard.press("Home")
    page.select_option("#replay-deal", "0")
    page.wait_for_function("() => document.getElementById('replay-root').dataset.step === '0'")
    assert page.get_attribute("#analysis-mark", "data-label") == ""


def test_next_mistake_follows_the_labels(pages, e2e_server):
    page, _ = open_replay(pages, e2e_server)
    data = ask(page)
    mistakes = [d for d in data["result"]["decisions"] if d["label"] in ("mistake", "blunder")]
    page.select_option("#replay-deal", "0")
    page.keyboard.press("n")
    if not mistakes:
        page.wait_for_function(
            "() => document.getElementById('analysis-mark').textContent.includes('No further')"
        )
        return
    first = mistakes[0]
    page.wait_for_function(
        "s => document.getElementById('replay-root').dataset.step === s",
        arg=str(first["action"] + 1),
    )
    assert page.get_attribute("#analysis-mark", "data-label") == first["label"]


def test_progress_comes_over_the_table_socket_without_a_reload(pages, e2e_server):
    page, username = open_replay(pages, e2e_server, played=True)
    frames: list[dict[str, Any]] = []
    page.on(
        "websocket",
        lambda ws: (
            "/ws/tables/" in ws.url
            and ws.on("framereceived", lambda payload: frames.append(json.loads(payload)))
        ),
    )
    ask(page)
    e2e_server.manage("shell", "-c", RUNNING.format(username=username, done=3))
    page.reload()
    page.wait_for_selector("#analysis[data-status='running']")
    assert page.get_attribute("#analysis-progress", "value") == "3"
    page.evaluate("() => { window.__same = true; }")
    e2e_server.manage("shell", "-c", RUNNING.format(username=username, done=7))
    page.wait_for_function("() => document.getElementById('analysis-progress').value === 7")
    assert page.evaluate("() => window.__same") is True  # no reload happened
    assert "7" in page.text_content("#analysis-status")
    # It came over the socket (the page's poll, every 15 s, would bring it too).
    assert {"type": "analysis", "status": "running", "done": 7, "total": 20} in frames


def test_on_a_phone_the_analysis_fits_the_width(pages, e2e_server):
    page, _ = open_replay(pages, e2e_server, width=390, height=844)
    ask(page)
    overflow = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow == 0
    shot(page.locator("#analysis"), "analysis-phone.png")
    shot(page, "analysis-phone-page.png")


def test_the_panel_speaks_russian(pages, e2e_server):
    page, _ = open_replay(pages, e2e_server, locale="ru-RU")
    strings = json.loads(page.text_content("#analysis-strings"))
    assert strings["ask"] != "Analyse this match"
    assert page.text_content("#analysis-ask").strip() == strings["ask"]


STALLED = """
from datetime import timedelta
from django.utils import timezone
from accounts.models import User
from analysis.models import Analysis
table = User.objects.get(username="{username}").seats.get().table
Analysis.objects.filter(table=table).update(
    status="running", done=5, total=20, result=None,
    progressed_at=timezone.now() - timedelta(minutes=3),
)
"""


def test_a_run_whose_worker_went_quiet_says_so(pages, e2e_server):
    """The bar stands still after a worker died: the panel says why and what happens."""
    page, username = open_replay(pages, e2e_server)
    ask(page)
    e2e_server.manage("shell", "-c", STALLED.format(username=username))
    page.reload()

    page.wait_for_selector("#analysis[data-stalled='true']")
    assert "the worker seems to have stopped" in page.text_content("#analysis-status")
    assert page.is_visible("#analysis-cancel")  # he may cancel and ask again


@pytest.mark.parametrize(("width", "height", "keys"), [(1280, 800, True), (390, 844, False)])
def test_the_p_and_n_keys_are_shown_only_beside_a_keyboard(pages, e2e_server, width, height, keys):
    page, _ = open_replay(pages, e2e_server, width=width, height=height)
    ask(page)
    assert page.locator("#analysis-next kbd").is_visible() is keys


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_the_panel_says_what_its_points_are(pages, e2e_server, width, height):
    page, _ = open_replay(pages, e2e_server, width=width, height=height)
    ask(page)
    assert "over the rest of the deal" in page.locator("#analysis-units").inner_text()
