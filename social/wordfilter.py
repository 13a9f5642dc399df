"""The chat's word filter (docs/social.md): obscenities are replaced by asterisks of the
same length, so the filtered text is exactly as long as what the person wrote.

English: better-profanity's maintained word list and its letter-for-digit spellings
(``sh1t``, ``fvck``: its ``CHARS_MAPPING`` and ``VaryingString``), matched and masked
here: the library's own ``censor`` writes ``****`` whatever the match's length, and joins
neighbouring words without their separators (``x x`` matched ``xx``), so 299 characters
came out as 373. Here an entry matches whole words of the text with the separators it
has itself (``hand job``, ``s-h-i-t``), and each match becomes as many asterisks as it
has characters. Russian and Ukrainian: the lists named by ``SOCIAL_CHAT_WORDLISTS``
(``social/wordlists/ru_uk.txt`` by default): roots that match every inflected form
(``пизд*``) and whole words. Entries of one letter are dropped from every list (a lone
"x" is no obscenity). No filter reads meaning: a message that names a hand's cards is
ordinary words (why the spectators talk in a room of their own).
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from better_profanity import Profanity
from better_profanity.constants import ALLOWED_CHARACTERS
from better_profanity.utils import get_complete_path_of_file, read_wordlist
from better_profanity.varying_string import VaryingString
from django.conf import settings

WORD = re.compile(r"\w+", re.UNICODE)

MIN_ENTRY = 2  # shorter entries are dropped: one letter is no word to hide

# The characters of an English word, as better-profanity reads them (letters of every
# alphabet, digits, and @ $ * that stand for letters), without its quotes: a word
# between quotes is still that word.
WORD_CHARS = frozenset(ALLOWED_CHARACTERS) - {'"', "'"}


def _fold(word: str) -> str:
    return word.lower().replace("ё", "е")


@cache
def _lists() -> tuple[frozenset[str], tuple[str, ...]]:
    """(whole words, roots) from every configured list."""
    words: set[str] = set()
    roots: set[str] = set()
    for name in settings.SOCIAL_CHAT_WORDLISTS:
        for line in Path(name).read_text(encoding="utf-8").splitlines():
            entry = line.strip()
            if not entry or entry.startswith("#"):
                continue
            if entry.endswith("*"):
                if len(entry) - 1 >= MIN_ENTRY:
                    roots.add(_fold(entry[:-1]))
            elif len(entry) >= MIN_ENTRY:
                words.add(_fold(entry))
    return frozenset(words), tuple(sorted(roots, key=len, reverse=True))


def _spans(text: str) -> list[tuple[int, int]]:
    """Where the words of ``text`` are: (start, end) of each run of word characters."""
    spans: list[tuple[int, int]] = []
    start = None
    for index, char in enumerate(text):
        if char in WORD_CHARS:
            if start is None:
                start = index
        elif start is not None:
            spans.append((start, index))
            start = None
    if start is not None:
        spans.append((start, len(text)))
    return spans


@dataclass(frozen=True, slots=True)
class English:
    """better-profanity's list, indexed for the matcher: each entry under the key of its
    spelling with every letter replaced by its class of look-alikes (a substitution never
    changes a length, so only entries of the candidate's key need comparing)."""

    classes: dict[str, str]
    entries: dict[str, list[VaryingString]]
    most_words: int  # the most words one entry has

    def key(self, text: str) -> str:
        return "".join(self.classes.get(char, char) for char in text)

    def matches(self, candidate: str) -> bool:
        folded = candidate.lower()
        return any(entry == folded for entry in self.entries.get(self.key(folded), ()))


@cache
def _english() -> English:
    mapping: dict[str, tuple[str, ...]] = Profanity().CHARS_MAPPING
    parent: dict[str, str] = {}

    def find(char: str) -> str:
        while parent.setdefault(char, char) != char:
            char = parent[char]
        return char

    for letter, spellings in mapping.items():
        for spelling in spellings:
            parent[find(spelling)] = find(letter)
    classes = {char: find(char) for char in parent}
    entries: dict[str, list[VaryingString]] = defaultdict(list)
    most = 1
    for line in read_wordlist(get_complete_path_of_file("profanity_wordlist.txt")):
        entry = line.lower()
        if len(entry) < MIN_ENTRY:
            continue
        key = "".join(classes.get(char, char) for char in entry)
        entries[key].append(VaryingString(entry, char_map=mapping))
        most = max(most, len(_spans(entry)))
    return English(classes=classes, entries=dict(entries), most_words=most)


def _trailing(text: str, end: int) -> int:
    """The end of the marks right after a word (``shi+``, ``s.o.b.``), up to a space or
    the next word."""
    while end < len(text) and text[end] not in WORD_CHARS and not text[end].isspace():
        end += 1
    return end


def _mask_english(text: str) -> str:
    english = _english()
    spans = _spans(text)
    chars = list(text)
    index = 0
    while index < len(spans):
        start = spans[index][0]
        found = None
        # The longest entry first: "mother fucker" before "mother".
        for last in range(min(len(spans), index + english.most_words) - 1, index - 1, -1):
            end = spans[last][1]
            for stop in (_trailing(text, end), end):
                if stop - start >= MIN_ENTRY and english.matches(text[start:stop]):
                    found = (last, stop)
                    break
            if found is not None:
                break
        if found is None:
            index += 1
            continue
        last, stop = found
        chars[start:stop] = "*" * (stop - start)
        index = last + 1
    return "".join(chars)


def censor(text: str) -> str:
    """``text`` with every word on the lists replaced by as many asterisks: always as
    long as ``text``."""
    words, roots = _lists()

    def hide(match: re.Match[str]) -> str:
        word = match.group(0)
        folded = _fold(word)
        if len(word) >= MIN_ENTRY and (folded in words or folded.startswith(roots)):
            return "*" * len(word)
        return word

    text = WORD.sub(hide, text)
    if settings.SOCIAL_CHAT_FILTER_ENGLISH:
        text = _mask_english(text)
    return text
