"""Templates keep the layers the Python keeps: a lower app's template never names a
higher app's templates, tag libraries, static files or URLs; it offers a slot
(core/slots.py) that the higher app fills."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(settings.BASE_DIR)

# Each app and the apps its templates may name besides itself: the apps below it, as the
# import-linter contracts in pyproject.toml order the Python.
MAY_NAME = {
    "core": set(),
    "accounts": {"core"},
    "games": {"core", "accounts"},
    "ratings": {"core", "accounts", "games"},
    "tournaments": {"core", "accounts", "games", "ratings"},
    "analysis": {"core", "accounts", "games", "ratings", "tournaments"},
    "social": {"core", "accounts", "games", "ratings", "tournaments"},
    "clubs": {"core", "accounts", "games", "ratings", "tournaments"},
    "fairplay": {"core", "accounts", "games", "ratings", "tournaments", "analysis"},
}

TEMPLATE_NAME = re.compile(r"{%\s*(?:include|extends)\s+['\"](\w+)/")
LOADED = re.compile(r"{%\s*load\s+([\w\s]+?)\s*%}")
STATIC = re.compile(r"{%\s*static\s+['\"](\w+)/")
URL = re.compile(r"{%\s*url\s+['\"](?:(\w+):|api-(\w+)-)")


def _libraries() -> dict[str, str]:
    """Each template tag library's name → the app that defines it."""
    return {
        module.stem: app
        for app in MAY_NAME
        for module in (ROOT / app / "templatetags").glob("*.py")
        if module.stem != "__init__"
    }


def _named_apps(text: str) -> set[str]:
    libraries = _libraries()
    named = set(TEMPLATE_NAME.findall(text)) | set(STATIC.findall(text))
    named |= {namespace or prefix for namespace, prefix in URL.findall(text)}
    for group in LOADED.findall(text):
        named |= {libraries[name] for name in group.split() if name in libraries}
    return named & set(MAY_NAME)


@pytest.mark.parametrize("app", sorted(MAY_NAME))
def test_an_apps_templates_name_no_app_above_it(app: str) -> None:
    above = set(MAY_NAME) - MAY_NAME[app] - {app}
    found = {
        str(path.relative_to(ROOT)): sorted(_named_apps(path.read_text()) & above)
        for path in (ROOT / app / "templates").rglob("*.html")
    }
    assert {path: apps for path, apps in found.items() if apps} == {}


def test_the_check_sees_a_higher_apps_include_tag_static_and_url() -> None:
    text = (
        '{% include "social/_chat.html" %}{% load i18n social_tags %}'
        "{% static 'analysis/x.js' %}{% url 'tournaments:detail' 1 %}"
    )
    assert _named_apps(text) == {"social", "analysis", "tournaments"}
