"""Names that cannot impersonate (docs/security.md).

A username or display name is refused when it

* holds a control or format character (RTL overrides, zero-width joiners, …), or an
  invisible one: Unicode's Default_Ignorable_Code_Point (the Hangul fillers, the combining
  grapheme joiner, variation selectors, tags, …) and the blank-looking symbols of
  :data:`BLANK_SYMBOLS` (the Braille blank);
* has no base character (a name of combining marks only, U+0301 six times, is drawn
  0 px wide): :func:`has_base_character`; judged only when the name is new or changed,
  so an account named before keeps its name;
* is a reserved word (``admin``, ``system``, a bot's name, …);
* looks like another player's username or display name: the two have the same
  :func:`name_key`, their Unicode skeleton (UTS #39, from the data of the
  ``confusable_homoglyphs`` package) without case and spaces, so that ``аlice`` with a
  Cyrillic ``а``, ``ALICE`` and ``al ice`` all clash with ``alice``; invisible
  characters are removed before the comparison, so ``alice`` + U+3164 clashes too (an
  account named before they were refused).

Default_Ignorable_Code_Point is a derived property that Python's ``unicodedata`` does not
offer; it comes from the ``regex`` package (its ``\\p{…}`` classes), which
follows the current Unicode version, rather than from a table written here.
"""

from __future__ import annotations

import unicodedata

import regex
from confusable_homoglyphs.confusables import confusables_data
from django.utils.translation import gettext_lazy as _

# Categories refused anywhere in a name: controls, format characters (bidi overrides,
# zero-width characters), surrogates, private use, unassigned; line/paragraph separators.
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})

# Symbols drawn as nothing that are not default-ignorable: the Braille blank (U+2800) and
# the musical null notehead (U+1D159), both used as "empty" names elsewhere.
BLANK_SYMBOLS = "\u2800\U0001d159"

# Everything a reader cannot see: refused in a name, removed before names are compared.
INVISIBLE = regex.compile(rf"[\p{{Default_Ignorable_Code_Point}}{BLANK_SYMBOLS}]")

RESERVED = frozenset(
    {
        "admin", "administrator", "root", "system", "staff", "moderator", "mod", "support",
        "help", "info", "security", "official", "server", "thousand", "api", "bot", "bots",
        "nobody", "anonymous", "null", "none", "undefined", "you", "me", "dealer",
        "botrandom", "botbasic", "botstrong", "bot(random)", "bot(basic)", "bot(strong)",
    }
)  # fmt: skip


def _prototype(char: str) -> str:
    """The UTS #39 prototype of one character: the package lists a single prototype
    for a confusable character, and every confusable for a prototype."""
    entries = confusables_data.get(char)
    if entries is not None and len(entries) == 1:
        return str(entries[0]["c"]).replace("\u200e", "")
    return char


def skeleton(text: str) -> str:
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(_prototype(c) for c in decomposed))


def name_key(name: str) -> str:
    """What a name looks like: equal keys, names a reader cannot tell apart."""
    text = INVISIBLE.sub("", unicodedata.normalize("NFKC", name)).casefold()
    key = skeleton(skeleton(text).casefold()).casefold()
    return "".join(c for c in INVISIBLE.sub("", key) if not c.isspace())


def refused_character(name: str) -> str | None:
    """The first character a name may not hold: a control or format character, or an
    invisible one (:data:`INVISIBLE`)."""
    for char in name:
        if unicodedata.category(char) in REFUSED_CATEGORIES or INVISIBLE.match(char):
            return char
    return None


# The general categories of a base character: letters, numbers, punctuation and symbols,
# each drawn with a width of its own; never a mark (Mn, Mc, Me), which sits on another.
BASE_CATEGORIES = frozenset("LNPS")


def has_base_character(name: str) -> bool:
    """Whether ``name`` holds at least one visible character that is not a mark: a name
    of combining marks only (U+0301 six times, U+20DD twice) is drawn 0 px wide."""
    return any(
        unicodedata.category(char)[0] in BASE_CATEGORIES and not INVISIBLE.match(char)
        for char in name
    )


def is_reserved(name: str) -> bool:
    return name_key(name) in RESERVED_KEYS


RESERVED_KEYS = frozenset(name_key(word) for word in RESERVED)

MESSAGES = {
    "character": _("A name may not contain control or invisible formatting characters."),
    "base": _("A name needs at least one letter, digit or symbol."),
    "reserved": _("This name is reserved."),
    "confusable": _("This name looks too much like another player's name."),
}
