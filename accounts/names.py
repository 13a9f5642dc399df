"""Names that cannot impersonate (issue 15, item 10; docs/security.md).

A username or display name is refused when it

* holds a control or format character (RTL overrides, zero-width joiners, …) or is blank
  but for them;
* is a reserved word (``admin``, ``system``, a bot's name, …);
* looks like another player's username or display name: the two have the same
  :func:`name_key`, their Unicode skeleton (UTS #39, from the data of the
  ``confusable_homoglyphs`` package) without case and spaces, so that ``аlice`` with a
  Cyrillic ``а``, ``ALICE`` and ``al ice`` all clash with ``alice``.
"""

from __future__ import annotations

import unicodedata

from confusable_homoglyphs.confusables import confusables_data
from django.utils.translation import gettext_lazy as _

# Categories refused anywhere in a name: controls, format characters (bidi overrides,
# zero-width characters), surrogates, private use, unassigned; line/paragraph separators.
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})

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
    text = unicodedata.normalize("NFKC", name).casefold()
    key = skeleton(skeleton(text).casefold()).casefold()
    return "".join(c for c in key if not c.isspace())


def refused_character(name: str) -> str | None:
    for char in name:
        if unicodedata.category(char) in REFUSED_CATEGORIES:
            return char
    return None


def is_reserved(name: str) -> bool:
    return name_key(name) in RESERVED_KEYS


RESERVED_KEYS = frozenset(name_key(word) for word in RESERVED)

MESSAGES = {
    "character": _("A name may not contain control or invisible formatting characters."),
    "reserved": _("This name is reserved."),
    "confusable": _("This name looks too much like another player's name."),
}
