"""Text the database cannot store (docs/security.md, "Unstorable text").

PostgreSQL text holds no NUL character (psycopg raises ``DataError``), and UTF-8 has no
form for a lone surrogate (U+D800–U+DFFF: psycopg raises ``UnicodeEncodeError``, and so
does a websocket sending it back). A browser's form never sends either (its UTF-8 is
decoded with replacement characters), but JSON does: ``"\\u0000"`` and ``"\\ud800"``
are valid JSON strings. So every text a socket or an API takes from a client is checked
here before anything reads it further, and refused as ``malformed``:

* :func:`unstorable_character`: the first such character of a text, or None;
* :func:`storable`: whether a text has none;
* :func:`validate_storable`: a Django validator for form and model fields (DRF's
  ``CharField`` already refuses both itself).

``config.nul`` refuses a NUL earlier, where it would reach a lookup: in a request's path,
query or cookies, and a websocket's handshake.
"""

from __future__ import annotations

import re

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

UNSTORABLE = re.compile("[\x00\ud800-\udfff]")

MESSAGE = _("The text holds a character that cannot be stored (a NUL or a lone surrogate).")


def unstorable_character(text: str) -> str | None:
    """The first NUL or lone surrogate of ``text``, or None."""
    found = UNSTORABLE.search(text)
    return found.group(0) if found is not None else None


def storable(text: str) -> bool:
    return UNSTORABLE.search(text) is None


def validate_storable(value: object) -> None:
    if isinstance(value, str) and not storable(value):
        raise ValidationError(MESSAGE, code="unstorable")
