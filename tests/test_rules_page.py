"""The rules for players: docs/rules*.md and the Rules page."""

import re
from pathlib import Path

import pytest
from django.urls import reverse

from core.rules import rules_page
from games.engine.options import OPTION_NAMES, PRESETS

ROOT = Path(__file__).resolve().parents[1]
LANGUAGES = {"en": "rules.md", "ru": "rules.ru.md", "uk": "rules.uk.md"}


def text(language: str) -> str:
    return (ROOT / "docs" / LANGUAGES[language]).read_text()


def shape(markdown: str) -> list[str]:
    """Heading levels and table rows, in order: what every translation must match."""
    return [
        line.split(" ")[0] if line.startswith("#") else "row"
        for line in markdown.splitlines()
        if line.startswith(("#", "|"))
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_rules_explain_every_table_option_and_preset(language):
    missing = [name for name in (*OPTION_NAMES, *PRESETS) if f"`{name}`" not in text(language)]

    assert not missing


@pytest.mark.parametrize("language", ["ru", "uk"])
def test_translations_have_every_section_and_table_row_of_the_english(language):
    assert shape(text(language)) == shape(text("en"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_link_inside_the_rules_leads_to_a_heading(language):
    html = rules_page(language).html

    targets = set(re.findall(r'href="#([^"]+)"', html))
    assert targets
    assert targets <= set(re.findall(r'id="([^"]+)"', html))


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "title", "term"),
    [
        ("en", "Rules of Thousand", "barrel"),
        ("ru", "Правила игры «Тысяча»", "бочка"),
        ("uk", "Правила гри «Тисяча»", "бочка"),
    ],
)
def test_rules_page_speaks_the_visitors_language(client, language, title, term):
    response = client.get(reverse("rules"), HTTP_ACCEPT_LANGUAGE=language)

    page = response.content.decode()
    assert response.status_code == 200
    assert f"<h1>{title}</h1>" in page
    assert term in page.lower()


@pytest.mark.django_db
def test_header_links_the_rules(client):
    page = client.get(reverse("home")).content.decode()

    assert f'<a href="{reverse("rules")}">Rules</a>' in page


@pytest.mark.parametrize(
    "document", ["README.md", *[f"docs/{name}" for name in LANGUAGES.values()]]
)
def test_documents_stand_alone(document):
    content = (ROOT / document).read_text()

    assert "../shared" not in content
    assert "/work/" not in content


def test_readme_links_lead_to_files_in_the_repository():
    readme = (ROOT / "README.md").read_text()

    links = re.findall(r"\]\(([^)#]+)\)", readme)
    local = [link for link in links if "://" not in link]
    assert local
    assert [link for link in local if not (ROOT / link).exists()] == []
