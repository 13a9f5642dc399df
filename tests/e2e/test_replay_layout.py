"""The replay's score sheet shows every column."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.steps import sign_up

pytestmark = pytest.mark.timeout(300)

FINISHED = """
from accounts.models import User
from tests.ratings.helpers import finished_match
me = User.objects.get(username="{username}")
print(finished_match([me, "basic", "strong"], seed=5).table_id)
"""

COLUMNS = """() => {
    const wrap = document.querySelector("#replay-root .sheet-wrap");
    const right = wrap.getBoundingClientRect().right;
    const cells = [...wrap.querySelectorAll("table.sheet th, table.sheet td")];
    return {
        rows: wrap.querySelectorAll("tbody.deal-row").length,
        scrolls: wrap.scrollWidth > wrap.clientWidth,
        outside: cells.filter((c) => c.getBoundingClientRect().right > right + 0.5).length,
        // A name too long for its column ends in "…" with the whole name in its title
        // (never broken inside a word); nothing else may be cut.
        clipped: cells
            .filter((c) => c.scrollWidth > c.clientWidth + 1 && c.title !== c.textContent)
            .map((c) => c.textContent),
        page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    };
}"""


def replay_at(pages: Any, e2e_server: Any, width: int, height: int) -> dict[str, Any]:
    page = pages.new(width=width, height=height)
    username = sign_up(page)
    e2e_server.manage("shell", "-c", FINISHED.format(username=username))
    page.goto("/matches/")
    page.click("a:has-text('Replay')")
    page.wait_for_selector("#replay-deal option", state="attached")
    last = page.eval_on_selector("#replay-deal", "s => s.options[s.options.length - 1].value")
    page.select_option("#replay-deal", last)
    page.wait_for_function(
        "n => document.getElementById('replay-root').dataset.deal === n", arg=last
    )
    return page.evaluate(COLUMNS)


def test_at_1280_by_800_every_column_of_the_replay_sheet_shows_whole(pages, e2e_server):
    sheet = replay_at(pages, e2e_server, 1280, 800)

    assert sheet["rows"] >= 3
    assert sheet == {**sheet, "scrolls": False, "outside": 0, "clipped": []}


def test_on_a_phone_the_replay_sheet_scrolls_within_its_box_not_the_page(pages, e2e_server):
    sheet = replay_at(pages, e2e_server, 390, 844)

    assert sheet["rows"] >= 3 and sheet["page"] == 0
