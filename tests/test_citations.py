"""Citations in the code resolve inside the repository (issue 21): every "§n.m" names a
section of docs/spec.md, and nothing points at documents the repository does not hold."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CITED = re.compile(r"§ ?(\d+(?:\.\d+)?)")
OUTSIDE = re.compile(r"\b(?:RULES|ARCHITECTURE|STYLE|PERFORMANCE|REFERENCES)\.md\b|\.\./shared")


def tracked(*patterns: str) -> list[Path]:
    out = subprocess.run(
        ["git", "ls-files", *patterns], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return [ROOT / name for name in out.stdout.split()]


def code_files() -> list[Path]:
    return tracked("*.py", "*.js", "*.html", "*.md", "Makefile", "*.toml", "*.yml")


def test_every_section_the_code_cites_is_a_section_of_the_spec() -> None:
    anchors = set(re.findall(r'<a id="s([\d.]+)"', (ROOT / "docs/spec.md").read_text()))
    missing = {
        f"{path.relative_to(ROOT)}: §{number}"
        for path in code_files()
        if path.suffix in (".py", ".js", ".html")
        for number in CITED.findall(path.read_text(errors="replace"))
        if number not in anchors
    }
    assert missing == set()


def test_nothing_cites_a_document_outside_the_repository() -> None:
    this_file = Path(__file__).resolve()
    found = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in code_files()
        if path.resolve() != this_file and path.exists()
        for n, line in enumerate(path.read_text(errors="replace").splitlines(), 1)
        if OUTSIDE.search(line) and "assert" not in line
    ]
    assert found == []
