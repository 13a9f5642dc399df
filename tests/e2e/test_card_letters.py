"""The cards speak the page's language: a Russian player's hand reads Т К Д В in the
corners of the cards, on a desktop and on a phone."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.steps import play_against_bots, sign_up

pytestmark = pytest.mark.timeout(300)

# The letter each card of the hand shows: the text its sprite symbol draws in the corner,
# for the cards whose picture is on the screen.
VISIBLE_LETTERS = """() => {
    const seen = [];
    for (const card of document.querySelectorAll(".hand .card")) {
        const box = card.getBoundingClientRect();
        const onScreen = box.width > 0 && box.height > 0 && box.left < innerWidth && box.top < innerHeight;
        const use = card.querySelector("svg use");
        if (!onScreen || !use) continue;
        const id = use.getAttribute("href").split("#")[1];
        const text = document.querySelector(`#card-sprite symbol[id="${id}"] text`);
        if (text) seen.push(text.textContent);
    }
    return seen;
}"""


@pytest.mark.parametrize(
    "size",
    [{"width": 1280, "height": 800}, {"width": 390, "height": 844}],
    ids=["desktop", "phone"],
)
def test_a_russian_hand_shows_cyrillic_letters_on_its_cards(
    pages: Any, size: dict[str, int]
) -> None:
    page = pages.new(locale="ru-RU", **size)
    sign_up(page)
    play_against_bots(page)
    page.wait_for_function(
        "() => document.querySelector('#card-sprite symbol') && "
        "document.querySelectorAll('.hand .card svg use').length >= 7"
    )

    letters = [x for x in page.evaluate(VISIBLE_LETTERS) if not x.isdigit()]

    assert letters and all(re.fullmatch("[ТКДВ]", x) for x in letters), letters


def test_a_card_in_russian_words_is_written_with_its_cyrillic_letter(pages: Any) -> None:
    page = pages.new(locale="ru-RU")
    sign_up(page)
    play_against_bots(page)

    text = page.evaluate("async () => (await import('/static/js/cards.js')).cardText('QH')")

    assert text == "Д♥"
