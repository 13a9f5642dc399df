"""The analysis panel's strings: every one its script asks for exists and is translated."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.utils import translation

from analysis.pages import hint_strings, panel_strings

JS = Path(__file__).resolve().parents[2] / "static" / "js"


def script_keys() -> set[str]:
    keys: set[str] = set()
    for name in ("analysis.js", "hint.js"):
        text = re.sub(r"^\s*//.*$", "", (JS / name).read_text(), flags=re.M)
        keys |= set(re.findall(r'\bt\(\s*"([a-z_0-9]+)"', text))
        keys |= {p + "*" for p in re.findall(r"\bt\(\s*`([a-z_]+)\$\{", text)}
    return keys


def strings() -> dict[str, str]:
    return panel_strings() | hint_strings()


def test_every_string_the_panel_asks_for_exists() -> None:
    every = strings()
    missing = [
        k
        for k in script_keys()
        if not (k.endswith("*") and any(s.startswith(k[:-1]) for s in every)) and k not in every
    ]
    assert missing == []
    assert {"label_good", "label_blunder", "do_play", "do_bid", "hint_answer"} <= set(every)


@pytest.mark.parametrize("language", ["ru", "uk"])
def test_the_panel_s_strings_are_translated(language: str) -> None:
    english = strings()
    with translation.override(language):
        translated = strings()
    same = [
        k for k, v in translated.items() if v == english[k] and re.search("[a-z]{3}", json.dumps(v))
    ]
    assert same == []
