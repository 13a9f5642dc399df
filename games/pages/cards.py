"""A card's rank as the page's language writes it: A K Q J in English, Т К Д В (туз,
король, дама, валет) in Russian and Ukrainian — in the pictures of the cards and in text
("Д♥"). The letters are translated strings (games/locale); scripts/make_cards.py draws
one sprite per alphabet, and the page gets the sprite that draws its letters.
"""

from __future__ import annotations

from django.templatetags.static import static
from django.utils.translation import pgettext

# The sprites scripts/make_cards.py writes, by the letters they draw for A K Q J.
SPRITES: dict[tuple[str, ...], str] = {
    ("A", "K", "Q", "J"): "cards/cards.svg",
    ("Т", "К", "Д", "В"): "cards/cards-cyrillic.svg",
}


def rank_letters() -> dict[str, str]:
    """The letter of each court card and the ace, in the active language."""
    return {
        "A": pgettext("card rank letter: ace", "A"),
        "K": pgettext("card rank letter: king", "K"),
        "Q": pgettext("card rank letter: queen", "Q"),
        "J": pgettext("card rank letter: jack", "J"),
    }


def card_sprite_url() -> str:
    """The sprite whose cards carry the active language's letters (English's otherwise)."""
    letters = tuple(rank_letters().values())
    return static(SPRITES.get(letters, SPRITES["A", "K", "Q", "J"]))
