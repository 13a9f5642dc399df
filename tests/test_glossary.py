"""The Russian and Ukrainian texts follow docs/glossary.md: no translation in any catalogue
(locale/ and every app's locale/) and neither rules page uses a form the glossary's "not"
columns rule out."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GLOSSARY = ROOT / "docs" / "glossary.md"
LANGUAGES = ("ru", "uk")


def forbidden_forms(language: str) -> dict[str, re.Pattern[str]]:
    """The forms in the glossary's "<language>: not" column, each a whole-word,
    case-insensitive pattern (``*`` any ending, a space any run of spaces)."""
    rows = [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in GLOSSARY.read_text(encoding="utf-8").splitlines()
        if line.startswith("|")
    ]
    column = rows[0].index(f"{language}: not")
    forms: dict[str, re.Pattern[str]] = {}
    for row in rows[2:]:
        for form in re.findall(r"`([^`]+)`", row[column]):
            body = r"\s+".join(re.escape(word).replace(r"\*", r"\w*") for word in form.split())
            forms[form] = re.compile(rf"(?<!\w){body}(?!\w)", re.IGNORECASE)
    return forms


def catalogues(language: str) -> list[Path]:
    return sorted(
        path
        for path in ROOT.glob(f"**/locale/{language}/LC_MESSAGES/django.po")
        if not {".venv", ".tools", "node_modules"} & set(path.relative_to(ROOT).parts)
    )


def translations(path: Path) -> list[tuple[str, str]]:
    """(msgid, msgstr) of every live entry of a .po file, each plural form on its own."""
    found: list[tuple[str, str]] = []
    entry: dict[str, str] = {}
    key = ""

    def close() -> None:
        for field, text in entry.items():
            if field.startswith("msgstr") and entry.get("msgid"):
                found.append((entry["msgid"], text))
        entry.clear()

    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            close()
        elif line.startswith("#"):
            continue  # comments, and obsolete "#~" entries nobody reads
        elif match := re.match(r'(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?) (".*")$', line):
            key = match[1]
            entry[key] = ast.literal_eval(match[2])
        elif line.startswith('"') and key:
            entry[key] += ast.literal_eval(line)
    close()
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_glossary_rules_out_forms_in_each_language(language):
    assert len(forbidden_forms(language)) >= 10


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_catalogue_uses_a_form_the_glossary_rules_out(language):
    forms = forbidden_forms(language)

    found = [
        f"{path.relative_to(ROOT)}: {msgid!r} says {pattern.search(text)[0]!r} (not `{form}`)"
        for path in catalogues(language)
        for msgid, text in translations(path)
        for form, pattern in forms.items()
        if pattern.search(text)
    ]

    assert found == [], "\n".join(found)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_rules_page_uses_no_form_the_glossary_rules_out(language):
    path = ROOT / "docs" / f"rules.{language}.md"
    text = path.read_text(encoding="utf-8")

    found = [
        f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, match.start()) + 1}: "
        f"{match[0]!r} (not `{form}`)"
        for form, pattern in forbidden_forms(language).items()
        for match in pattern.finditer(text)
    ]

    assert found == [], "\n".join(found)
