"""Citations in the code resolve inside the repository: every "§n.m" names a section of
docs/spec.md, nothing points at documents the repository does not hold, and no comment or
docstring cites an issue number or tells the story of how the code came to be (CONTRIBUTING,
"Where code goes": comments say what the code does and why; the history is the commit log)."""

from __future__ import annotations

import ast
import io
import re
import subprocess
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CITED = re.compile(r"§ ?(\d+(?:\.\d+)?)")
OUTSIDE = re.compile(r"\b(?:RULES|ARCHITECTURE|STYLE|PERFORMANCE|REFERENCES)\.md\b|\.\./shared")

# An issue or pull-request number: the word "issue" (or "issues", "PR", "fixes"…) and a
# number, or a bare number in parentheses after "#".
ISSUE = re.compile(
    r"\bissues? ?#?\d+|\(#\d+\)|\b(?:PR|pull request|ticket|bug|fixes|closes) ?#\d+", re.I
)
# A story: the episode that made the code rather than what the code does. Kept to phrases
# that honest prose does not use ("the second run changes nothing" stays allowed).
STORY = re.compile(
    r"\bwe (?:found|saw|noticed|measured|learned|discovered|used to)\b"
    r"|\bthe attack run\b|\b(?:last|previous|earlier) session\b"
    r"|\b(?:was|were) seen\b|\bused to (?:fail|crash|break|leak|hang|take|print|show)\b"
    r"|\bbefore (?:this change|the fix)\b|\bafter the fix\b|\bthe unfixed\b"
    r"|\bthe (?:\d+(?:st|nd|rd|th)|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth) "
    r"(?:run|attempt|review)\b",
    re.I,
)

BLOCK = re.compile(r"/\*.*?\*/", re.S)
LINE = re.compile(r"(?:^|(?<=\s))//[^\n]*", re.M)
MARKUP = re.compile(r"<!--.*?-->|\{#.*?#\}|\{% comment %\}.*?\{% endcomment %\}", re.S)
HASH = re.compile(r"(?:^|(?<=\s))#[^\n]*", re.M)


def tracked(*patterns: str) -> list[Path]:
    out = subprocess.run(
        ["git", "ls-files", *patterns], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return [ROOT / name for name in out.stdout.split()]


def code_files() -> list[Path]:
    return tracked("*.py", "*.js", "*.html", "*.md", "Makefile", "*.toml", "*.yml")


def python_notes(source: str) -> list[tuple[int, str]]:
    """The comments and docstrings of a Python source, each with its first line."""
    notes = [
        (token.start[0], token.string)
        for token in tokenize.generate_tokens(io.StringIO(source).readline)
        if token.type == tokenize.COMMENT
    ]
    notes += [
        (node.lineno, node.value.value)
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    ]
    return notes


def _matches(pattern: re.Pattern[str], source: str) -> list[tuple[int, str]]:
    return [(source.count("\n", 0, m.start()) + 1, m.group()) for m in pattern.finditer(source)]


def notes_of(name: str, source: str) -> list[tuple[int, str]]:
    """The comment text of a source file by its kind (``name`` gives the kind)."""
    if name.endswith(".py"):
        return python_notes(source)
    if name.endswith(".css"):
        return _matches(BLOCK, source)
    if name.endswith(".js"):
        return _matches(BLOCK, source) + _matches(LINE, source)
    if name.endswith(".html"):
        return _matches(MARKUP, source) + _matches(BLOCK, source) + _matches(LINE, source)
    return _matches(HASH, source)  # a Makefile


def telling(note: str) -> str | None:
    """The citation or story a note carries, or None for honest prose."""
    found = ISSUE.search(note) or STORY.search(note)
    return found.group() if found else None


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


# The samples spell their numbers through f-strings, so that this file is not itself
# read as citing issues by a scanner that looks at the text.
WORD = "issue"


@pytest.mark.parametrize(
    "note",
    [
        f"# The cap holds ({WORD} {12}).",
        f"See {WORD}s {3}/{4} for the reason.",
        f"{WORD.title()} #{7}: the header.",
        f"a race (#{41}) between two workers",
        "the stale seat, we found, kept its socket",
        "The attack run left 12 tables open.",
        "as last session showed",
        "the error was seen under load",
        "it used to crash on a NUL byte",
        "Before this change the page failed.",
        "the 3rd run of the bench",
        "as the fifth run showed",
    ],
)
def test_a_citation_or_a_story_is_found(note: str) -> None:
    assert telling(note) is not None


@pytest.mark.parametrize(
    "note",
    [
        "# A second run changes nothing.",
        "the key used to sign the token",
        "A session has no challenge, hence 403.",
        "when a session signed it in, that session",
        "the app this one used to be",
        "Names folded by their UTS #39 skeleton.",
        "the seen cards of the seat (§2.3)",
        "each issue of the newsletter is a separate row",
        "colour: #333 on #fff",
    ],
)
def test_honest_prose_is_not_flagged(note: str) -> None:
    assert telling(note) is None


def test_the_notes_of_each_kind_of_file_are_read() -> None:
    i = WORD
    python = f'x = "{i} {1} in a string is data"  # {i} {2}\n"""{i} {3}"""\n'
    assert [text for _, text in notes_of("a.py", python)] == [f"# {i} {2}", f"{i} {3}"]
    js = f'const u = "https://example.org/{i} {4}"; // {i} {5}\n/* {i} {6} */\n'
    assert sorted(text for _, text in notes_of("a.js", js)) == [f"/* {i} {6} */", f"// {i} {5}"]
    assert [t for _, t in notes_of("a.css", f"a {{ color: #333; }} /* {i} {7} */")] == [
        f"/* {i} {7} */"
    ]
    html = f"<p>{i} {8}</p><!-- {i} {9} -->{{# {i} {10} #}}"
    assert [t for _, t in notes_of("a.html", html)] == [f"<!-- {i} {9} -->", f"{{# {i} {10} #}}"]
    assert [t for _, t in notes_of("Makefile", f"x:\n\techo 1 # {i} {11}\n")] == [f"# {i} {11}"]


def test_no_comment_or_docstring_cites_an_issue_or_tells_a_story() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}: {telling(text)!r}"
        for path in tracked("*.py", "*.js", "*.html", "*.css", "Makefile")
        if path.exists()
        for line, text in notes_of(path.name, path.read_text(errors="replace"))
        if telling(text)
    ]
    assert found == []
