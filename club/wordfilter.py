"""The chat's word filter (docs/social.md): obscenities are replaced by asterisks.

English: better-profanity's maintained list and its matcher (whole words, with the
usual letter-for-digit spellings). Russian and Ukrainian: the lists named by
``CLUB_CHAT_WORDLISTS`` (``club/wordlists/ru_uk.txt`` by default): roots that match every
inflected form (``пизд*``) and whole words. No filter reads meaning: a message that
names a hand's cards is ordinary words (why the spectators talk in a room of their own).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from better_profanity import Profanity
from django.conf import settings

WORD = re.compile(r"\w+", re.UNICODE)


def _fold(word: str) -> str:
    return word.lower().replace("ё", "е")


@cache
def _lists() -> tuple[frozenset[str], tuple[str, ...]]:
    """(whole words, roots) from every configured list."""
    words: set[str] = set()
    roots: set[str] = set()
    for name in settings.CLUB_CHAT_WORDLISTS:
        for line in Path(name).read_text(encoding="utf-8").splitlines():
            entry = line.strip()
            if not entry or entry.startswith("#"):
                continue
            if entry.endswith("*"):
                roots.add(_fold(entry[:-1]))
            else:
                words.add(_fold(entry))
    return frozenset(words), tuple(sorted(roots, key=len, reverse=True))


@cache
def _english() -> Profanity:
    profanity = Profanity()
    profanity.load_censor_words()
    return profanity


def censor(text: str) -> str:
    """``text`` with every word on the lists replaced by as many asterisks."""
    words, roots = _lists()

    def hide(match: re.Match[str]) -> str:
        word = match.group(0)
        folded = _fold(word)
        if folded in words or folded.startswith(roots):
            return "*" * len(word)
        return word

    text = WORD.sub(hide, text)
    if settings.CLUB_CHAT_FILTER_ENGLISH:
        text = _english().censor(text, "*")
    return text
