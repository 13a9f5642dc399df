"""The table page's drawing (static/js/render.js, sheet.js) from views the engine makes:
the module is loaded in a real page of the site and given a model, the way the
websocket client gives it one, so each case is one exact situation."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.utils import translation

from games.engine import Match, Options
from games.pages.strings import table_strings

pytestmark = pytest.mark.timeout(300)

DRAW = """async ([model, strings]) => {
    let node = document.getElementById("ui-strings");
    if (!node) {
        node = document.createElement("script");
        node.type = "application/json";
        node.id = "ui-strings";
        document.body.append(node);
    }
    node.textContent = JSON.stringify(strings);
    const { loadStrings } = await import("/static/js/i18n.js");
    const { createTable } = await import("/static/js/render.js");
    let root = document.getElementById("draw-root");
    if (!root) {
        root = document.createElement("div");
        root.id = "draw-root";
        document.body.append(root);
    }
    const board = createTable(root, { t: loadStrings(), send() {} });
    board.update(model);
    board.tick();
}"""


def english_strings() -> dict[str, Any]:
    with translation.override("en"):
        return table_strings()


def view_where(want: Any, *, options: Options, seeds: range = range(300)) -> dict[str, Any]:
    """The first seat view, in matches of random legal play, that ``want`` accepts."""
    for seed in seeds:
        match = Match.new(options, seed=seed)
        rng = random.Random(seed)
        for _ in range(80):
            seat = match.to_act
            if seat is None:
                break
            view = match.view(seat).to_dict()
            if want(view):
                return view
            match.apply(rng.choice(list(match.view(seat).legal)), seat=seat)
    raise AssertionError("no such view in the seeds tried")


def draw(page: Any, model: dict[str, Any]) -> None:
    page.goto("/rules/")
    page.evaluate(DRAW, [model, english_strings()])


def seats(players: int, bots: dict[int, str]) -> list[dict[str, Any]]:
    return [
        {
            "number": n,
            "name": f"Bot {n + 1}" if n in bots else f"player{n}",
            "bot_level": bots.get(n),
        }
        for n in range(players)
    ]


def people_model(view: dict[str, Any]) -> dict[str, Any]:
    """A table of three people, online, nothing pending, no clock."""
    table = {"seats": seats(3, {})}
    return {"view": view, "sheet": [], "online": True, "pending": False, "table": table}


def test_a_bot_seat_to_act_shows_thinking_not_a_clock(pages):
    view = view_where(
        lambda v: v["phase"] == "bidding" and v["to_act"] != 0, options=Options.preset("classic")
    )
    view = {**view, "seat": 0}  # watched from seat 0, a person; the bot's turn
    deadline = (datetime.now(UTC) + timedelta(seconds=12)).timestamp() * 1000
    model = {
        "view": view, "sheet": [], "online": True, "pending": False,
        "table": {"seats": seats(3, {view["to_act"]: "basic"}), "move_seconds": 30},
        "clock": {"seat": view["to_act"], "deadline": deadline},
    }  # fmt: skip
    page = pages.new()

    draw(page, model)

    clock = page.locator(f"#draw-root .seat[data-seat='{view['to_act']}'] .clock")
    assert clock.inner_text() == "thinking…"
    assert ":" not in clock.inner_text()


def test_a_person_to_act_still_shows_the_move_clock(pages):
    view = view_where(
        lambda v: v["phase"] == "bidding" and v["to_act"] == 1, options=Options.preset("classic")
    )
    view = {**view, "seat": 0}
    deadline = (datetime.now(UTC) + timedelta(seconds=25)).timestamp() * 1000
    model = {
        "view": view, "sheet": [], "online": True, "pending": False,
        "table": {"seats": seats(3, {2: "basic"}), "move_seconds": 30},
        "clock": {"seat": 1, "deadline": deadline},
    }  # fmt: skip
    page = pages.new()

    draw(page, model)

    text = page.locator("#draw-root .seat[data-seat='1'] .clock").inner_text()
    assert text.startswith("0:2")


def test_when_only_pass_is_offered_above_120_the_prompt_says_a_marriage_is_needed(pages):
    view = view_where(
        lambda v: (
            v["phase"] == "bidding"
            and [a["type"] for a in v["legal"]] == ["pass"]
            and v["bid"] >= 120
        ),
        options=Options.preset("club"),
    )
    page = pages.new()

    draw(page, people_model(view))

    prompt = page.inner_text("#draw-root .prompt")
    assert "raise or pass" not in prompt
    assert "only Pass" in prompt and "marriage" in prompt


def test_when_a_raise_is_legal_the_prompt_still_offers_raise_or_pass(pages):
    view = view_where(
        lambda v: v["phase"] == "bidding" and {"bid", "pass"} <= {a["type"] for a in v["legal"]},
        options=Options.preset("classic"),
    )
    page = pages.new()

    draw(page, people_model(view))

    assert page.inner_text("#draw-root .prompt") == "Your turn to bid: raise or pass."


def barrel_rows() -> list[dict[str, Any]]:
    """Rows 21–23 of the issue's match, in the shape games.state.sheet_row gives them:
    seat 0 sits on the barrel at 880 and fails 120 twice (attempts 2 and 3), then falls."""

    def row(deal: int, attempt: int, scores: list[int], fell: bool) -> dict[str, Any]:
        notes: list[dict[str, Any]] = [{"type": "barrel_attempt", "seat": 0, "attempts": attempt}]
        if fell:
            notes.append({"type": "barrel_fell", "seat": 0, "reason": "attempts", "score": 760})
        return {
            "deal": deal, "dealer": deal % 3, "declarer": 0, "contract": 120, "bid": 120,
            "outcome": "failed", "deltas": [0, 40, 35], "scores": scores, "bolts": [0, 0, 0],
            "barrel": None if fell else 0, "golden": False, "dark": False,
            "lines": [
                {"seat": 0, "role": "declarer", "card_points": 80, "marriages": 0, "tricks": 3, "delta": -120, "bolts": 0},
                {"seat": 1, "role": "defender", "card_points": 40, "marriages": 0, "tricks": 2, "delta": 40, "bolts": 0},
                {"seat": 2, "role": "defender", "card_points": 35, "marriages": 0, "tricks": 2, "delta": 35, "bolts": 0},
            ],
            "notes": notes,
        }  # fmt: skip

    return [
        row(20, 1, [880, 400, 300], False),
        row(21, 2, [880, 440, 335], False),
        row(22, 3, [760, 480, 370], True),
    ]


SHEET = """async ([rows, strings]) => {
    const node = document.createElement("script");
    node.type = "application/json";
    node.id = "ui-strings";
    node.textContent = JSON.stringify(strings);
    document.body.append(node);
    const { loadStrings } = await import("/static/js/i18n.js");
    const { renderSheet } = await import("/static/js/sheet.js");
    const t = loadStrings();
    const root = document.createElement("div");
    root.id = "sheet-root";
    root.append(renderSheet(rows, { players: 3, name: (s) => `P${s + 1}`, t }));
    document.body.append(root);
}"""


def sheet_cell(page: Any, deal: int, seat: int) -> Any:
    return page.locator(f"#sheet-root tbody[data-deal='{deal}'] tr:first-child td.seat-col").nth(
        seat
    )


def test_a_failed_contract_on_the_barrel_is_shown_as_not_counted(pages):
    page = pages.new()
    page.goto("/rules/")
    page.evaluate(SHEET, [barrel_rows(), english_strings()])

    cell = sheet_cell(page, 21, 0)

    assert cell.locator("s").inner_text() == "(−120)"
    assert "attempt 2 of 3, not counted" in cell.locator(".not-counted").get_attribute("title")
    assert cell.locator(".total").inner_text() == "880"
    assert cell.locator(".delta.neg").count() == 0  # nothing shown as taken off the score


def test_the_fall_from_the_barrel_is_its_own_line(pages):
    page = pages.new()
    page.goto("/rules/")
    page.evaluate(SHEET, [barrel_rows(), english_strings()])

    cell = sheet_cell(page, 22, 0)

    assert cell.locator("s").inner_text() == "(−120)"
    assert cell.locator(".fall").inner_text() == "fell off −120"
    assert cell.locator(".total").inner_text() == "760"


def test_the_opponents_points_in_a_barrel_deal_count_as_usual(pages):
    page = pages.new()
    page.goto("/rules/")
    page.evaluate(SHEET, [barrel_rows(), english_strings()])

    cell = sheet_cell(page, 21, 1)

    assert cell.locator("s").count() == 0
    assert cell.locator(".delta").inner_text() == "+40"
