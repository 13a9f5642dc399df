"""The analysis's progress bar fills as a real worker runs it.

The full stack as deployed: uvicorn, the Redis channel layer, PostgreSQL and a Celery
worker process of its own on the analysis queue (prefork, one process, as
``scripts/stack`` and compose run it). A person's short match against bots is finished
through the services; he and a second viewer open its replay; he asks for the analysis.
The worker publishes each decision's progress to the table's sockets: both pages' bars
move through values between 0 and the total, then the result appears, with no reload.
The budget of worlds is the live server's small one (``ANALYSIS_SAMPLES``), so the run
is short; every message counts, not its timing.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.conftest import Pages
from tests.e2e.stack import FullStack, postgres_and_redis
from tests.e2e.steps import sign_up

pytestmark = pytest.mark.timeout(300)

# A match of two deals the person played (a basic bot's choices) against two basic bots,
# run in the shell's own process.
PLAYED = """
from accounts.models import User
from tests.analysis.helpers import played_table
played_table(deals=2, user=User.objects.get(username="{username}"))
"""

# Every value and status the page's bar shows, as the page sets them.
WATCH = """() => {
    window.__same = true;
    window.__seen = [];
    const bar = document.getElementById("analysis-progress");
    const panel = document.getElementById("analysis");
    new MutationObserver(() => window.__seen.push(
        [panel.dataset.status, Number(bar.value), Number(bar.max), bar.hidden]
    )).observe(bar, { attributes: true });
}"""


@pytest.fixture(scope="module")
def stack() -> Iterator[FullStack]:
    postgres_and_redis("the analysis worker's browser test")
    with FullStack(beat=False, analysis_worker=True) as server:
        yield server


def table_frames(page: Any) -> list[dict[str, Any]]:
    """The messages the page's table sockets receive, as they arrive."""
    frames: list[dict[str, Any]] = []

    def on_socket(ws: Any) -> None:
        if "/ws/tables/" in ws.url:
            ws.on("framereceived", lambda payload: frames.append(json.loads(payload)))

    page.on("websocket", on_socket)
    return frames


def open_replay(page: Any, url: str) -> list[dict[str, Any]]:
    """Open the replay at ``url``; returns its table socket's messages, once the socket
    follows the table (its state came, so it is in the table's groups)."""
    frames = table_frames(page)
    page.goto(url)
    page.wait_for_selector("#analysis[data-status='none']")
    for _ in range(300):
        if any(f.get("type") == "state" for f in frames):
            break
        page.wait_for_timeout(100)
    assert any(f.get("type") == "state" for f in frames), "the table socket never opened"
    page.evaluate(WATCH)
    return frames


def intermediate(seen: list[list[Any]]) -> list[int]:
    return [value for status, value, total, _ in seen if status == "running" and 0 < value < total]


@pytest.mark.slow(seconds=90)  # its own server and workers: a minute to start
def test_the_bar_fills_as_the_worker_runs_then_the_result_shows(
    browser: Any, stack: FullStack
) -> None:
    pages = Pages(browser, stack.url)
    try:
        player = pages.new()
        username = sign_up(player)
        stack.manage(
            "shell", "-c", PLAYED.format(username=username),
            GAMES_SCHEDULER="manual", CELERY_TASK_ALWAYS_EAGER="true",
        )  # fmt: skip
        player.goto("/matches/")
        url = player.get_attribute("a[href$='/replay/']", "href")
        mine = open_replay(player, url)
        viewer = pages.new(width=390, height=844)
        sign_up(viewer)
        theirs = open_replay(viewer, url)

        player.click("#analysis-ask")
        for page in (player, viewer):
            page.wait_for_selector("#analysis[data-status='done']", timeout=120_000)
            page.wait_for_selector("#analysis-result:not([hidden])")
        total = player.locator("#analysis-chart rect").count()
        assert total > 2
        # The worker's progress, decision by decision, reached both viewers' sockets ...
        for frames in (mine, theirs):
            progress = [f["done"] for f in frames if f.get("type") == "analysis"]
            assert [d for d in progress if 0 < d < total], progress
            assert progress == sorted(progress) and progress[-1] == total
        # ... and both bars showed values between 0 and the total, then the result,
        # which the page drew without a reload.
        for page in (player, viewer):
            assert page.evaluate("() => window.__same") is True
            seen = page.evaluate("() => window.__seen")
            assert intermediate(seen), seen
            assert seen[-1][3] is True  # the bar is gone with the run
    except BaseException:
        print(stack.logs())
        raise
    finally:
        pages.close()
    assert not pages.errors, "\n".join(pages.errors)
