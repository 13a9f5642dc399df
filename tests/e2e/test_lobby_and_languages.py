"""The lobby updates itself; the pages speak Russian and Ukrainian; a phone screen."""

import pytest

from tests.e2e.steps import open_table_from_lobby, play_against_bots, play_until, sign_up

pytestmark = pytest.mark.timeout(300)


def test_the_lobby_shows_a_table_another_player_opens_without_a_reload(pages):
    watcher, opener = pages.new(), pages.new()
    sign_up(watcher)
    sign_up(opener)
    watcher.goto("/play/")
    watcher.evaluate("() => { window.notReloaded = true; }")

    table_id = open_table_from_lobby(opener)

    watcher.wait_for_selector(f"#lobby-tables [data-table='{table_id}']", timeout=15_000)
    assert watcher.evaluate("() => window.notReloaded") is True


@pytest.mark.parametrize(
    ("locale", "lobby_words", "sheet_title"),
    [
        ("ru-RU", "Играть с ботами сейчас", "Запись игры"),
        ("uk-UA", "Грати з ботами зараз", "Запис гри"),
    ],
)
def test_the_pages_speak_russian_and_ukrainian(pages, locale, lobby_words, sheet_title):
    page = pages.new(locale=locale)
    sign_up(page)
    page.goto("/play/")
    assert lobby_words in page.inner_text("main")

    play_against_bots(page)
    play_until(page, lambda s: s["rows"] >= 1)

    assert page.inner_text(".table-side h2") == sheet_title
    assert page.locator("html").get_attribute("lang") == locale[:2]


OVERFLOW = """() => {
    const width = document.documentElement.clientWidth;
    const wide = [...document.querySelectorAll("body *")].filter(el => {
        if (el.closest(".visually-hidden, #card-sprite, [hidden]")) return false;
        const box = el.getBoundingClientRect();
        return box.width > 0 && (box.right > width + 1 || box.left < -1);
    }).map(el => el.tagName + "." + el.className);
    return {scroll: document.documentElement.scrollWidth, width, wide: wide.slice(0, 5)};
}"""


def test_nothing_overflows_a_390_by_844_phone_screen(pages):
    """The widest table there is: four players, four score-sheet columns."""
    page = pages.new(width=390, height=844)
    sign_up(page)
    seen = {}
    page.goto("/play/")
    seen["lobby"] = page.evaluate(OVERFLOW)
    open_table_from_lobby(page, players=4)
    seen["waiting room"] = page.evaluate(OVERFLOW)
    for _ in range(3):
        page.click("#add-bot")
    page.click("#start-table")
    page.wait_for_selector("#table-root .felt")
    play_until(page, lambda s: s["phase"] == "play" and s["myTurn"] and s["rows"] >= 1)
    seen["table"] = page.evaluate(OVERFLOW)
    page.click("table.sheet tbody.deal-row .sheet-toggle")
    seen["sheet"] = page.evaluate(OVERFLOW)

    assert {k: v for k, v in seen.items() if v["wide"] or v["scroll"] > 390} == {}
