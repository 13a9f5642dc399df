import re

import pytest
import yaml
from django.urls import reverse

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_home_page_has_the_navigation(client):
    page = client.get(reverse("home")).content.decode()

    for label, url in [
        ("Play", reverse("play")),
        ("Tournaments", reverse("tournaments")),
        ("Leaderboards", reverse("leaderboards")),
        ("Sign in", reverse("accounts:login")),
        ("Sign up", reverse("accounts:signup")),
    ]:
        assert f'href="{url}"' in page, label
        assert label in page


@pytest.mark.parametrize("name", ["play", "tournaments", "leaderboards", "accounts:login"])
def test_each_navigation_page_renders(client, name):
    assert client.get(reverse(name)).status_code == 200


def test_openapi_schema_describes_the_accounts_api(client):
    schema = yaml.safe_load(client.get(reverse("api-schema")).content)

    assert schema["info"]["title"] == "Thousand API"
    assert "/api/v1/me/" in schema["paths"]


def test_api_docs_load_nothing_from_another_host(client):
    page = client.get(reverse("api-docs")).content.decode()

    sources = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert sources, "the docs page should load its scripts"
    assert all(not s.startswith(("http:", "https:", "//")) for s in sources), sources


def test_admin_user_list_opens_for_a_superuser(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))

    assert client.get("/admin/accounts/user/").status_code == 200
    assert client.get("/admin/accounts/user/add/").status_code == 200


def test_header_has_a_menu_button_for_narrow_screens(client):
    page = client.get(reverse("home")).content.decode()

    assert 'class="menu-button" aria-expanded="false" aria-controls="site-menu"' in page
    assert 'id="site-menu"' in page


def test_pages_load_nothing_from_another_host(client):
    page = client.get(reverse("home")).content.decode()

    sources = re.findall(r'<(?:script|link)[^>]+(?:src|href)="([^"]+)"', page)
    assert sources
    assert all(s.startswith("/") and not s.startswith("//") for s in sources), sources
