"""The Rules page: docs/rules.md and its translations, rendered from Markdown.

The rules are long prose, so each language has one whole document (docs/rules.md in
English, docs/rules.ru.md, docs/rules.uk.md) rather than hundreds of message strings;
the repository's readers get the same text the site shows.
"""

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import markdown
from django.conf import settings
from markdown.extensions.toc import slugify_unicode

DOCS = Path(settings.BASE_DIR) / "docs"
DEFAULT_LANGUAGE = "en"


@dataclass(frozen=True)
class RulesPage:
    html: str
    toc: str
    title: str


def rules_path(language: str) -> Path:
    """The rules document for ``language``, or the English one."""
    if language != DEFAULT_LANGUAGE:
        translated = DOCS / f"rules.{language}.md"
        if translated.is_file():
            return translated
    return DOCS / "rules.md"


def rules_page(language: str) -> RulesPage:
    path = rules_path(language.split("-")[0])
    return _render(path, path.stat().st_mtime_ns)


@lru_cache(maxsize=8)
def _render(path: Path, mtime_ns: int) -> RulesPage:
    """Markdown to HTML, once per version of the file (the mtime is in the cache key)."""
    converter = markdown.Markdown(
        extensions=["tables", "toc", "sane_lists", "attr_list"],
        extension_configs={"toc": {"slugify": slugify_unicode, "toc_depth": "2-3"}},
        output_format="html",
    )
    text = path.read_text(encoding="utf-8")
    title, _, body = text.partition("\n")
    html = converter.convert(body)
    return RulesPage(html=html, toc=converter.toc, title=title.lstrip("# ").strip())
