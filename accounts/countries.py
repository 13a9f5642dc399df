"""The country list, in the alphabetical order of the language the page is shown in.

django-countries sorts by the ASCII letters of a name when PyICU/pyuca is missing: every
Cyrillic name then sorts as empty, so Russian and Ukrainian lists come out in English
order with multi-word names last. Here each language sorts by its own alphabet.
"""

import unicodedata
from collections.abc import Iterator

from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from django_countries import Countries, CountryTuple

# Letters in the order of each language's alphabet; a letter that sorts as another one
# at the first level (Russian ё as е) is listed in EQUAL.
ALPHABETS = {
    "en": "abcdefghijklmnopqrstuvwxyz",
    "ru": "абвгдежзийклмнопрстуфхцчшщъыьэюя",
    "uk": "абвгґдеєжзиіїйклмнопрстуфхцчшщьюя",
}
EQUAL = {"ru": {"ё": "е"}}
LATIN = ALPHABETS["en"]

SPACE, OTHER_SCRIPT_LETTER = 0, 1_000_000


def collation_key(text: str, language: str) -> tuple[tuple[int, ...], str]:
    """Sort key for ``text`` in ``language``: its letters' places in the alphabet.

    Spaces sort before every letter (a name before its longer forms), other punctuation
    is ignored, letters with accents that the alphabet does not list sort as
    their base letter ("Åland" as "Aland"), Latin letters in a Cyrillic list follow the
    Cyrillic ones, and anything else follows by code point. Ties keep a stable order.
    """
    base = language.split("-")[0]
    alphabet = ALPHABETS.get(base, LATIN)
    equal = EQUAL.get(base, {})
    places: list[int] = []
    for char in text.casefold():
        char = equal.get(char, char)
        if char in alphabet:
            places.append(1 + alphabet.index(char))
        elif char.isspace():
            places.append(SPACE)
        elif char.isalpha():
            stripped = unicodedata.normalize("NFKD", char)[0]
            if stripped in alphabet:
                places.append(1 + alphabet.index(stripped))
            elif stripped in LATIN:
                places.append(1 + len(alphabet) + LATIN.index(stripped))
            else:
                places.append(OTHER_SCRIPT_LETTER + ord(char))
    return tuple(places), text


class PlayerCountries(Countries):
    """Countries for a player's profile, sorted for the active language."""

    # django-countries 9 names Nauru by its Nauruan name in English.
    override = {"NR": _("Nauru")}

    def __iter__(self) -> Iterator[CountryTuple]:
        language = get_language() or "en"
        cache: dict[str, list[CountryTuple]] = self.__dict__.setdefault("_sorted_cache", {})
        if language not in cache:
            cache[language] = sorted(
                super().__iter__(), key=lambda country: collation_key(str(country.name), language)
            )
        yield from cache[language]
