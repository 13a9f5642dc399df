"""Text the database cannot store (docs/security.md, "Unstorable text").

PostgreSQL text holds no NUL character (psycopg raises ``DataError``), and UTF-8 has no
form for a lone surrogate (U+D800–U+DFFF: psycopg raises ``UnicodeEncodeError``, and so
does a websocket sending it back). A browser's form never sends either (its UTF-8 is
decoded with replacement characters, and Django's forms refuse a NUL), and the API's
``CharField`` (DRF) refuses both itself, but a socket's JSON carries them:
``"\\u0000"`` and ``"\\ud800"`` are valid JSON strings. So every text a socket takes
from a client is checked here before anything reads it further, and refused as
``malformed``:

* :func:`storable`: whether a text has neither.

``core.nul`` refuses a NUL earlier, where it would reach a lookup: in a request's path,
query or cookies, and a websocket's handshake.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext_lazy as _

UNSTORABLE = re.compile("[\x00\ud800-\udfff]")

MESSAGE = _("The text holds a character that cannot be stored (a NUL or a lone surrogate).")


def storable(text: str) -> bool:
    return UNSTORABLE.search(text) is None
