"""Error pages in the site's layout and language.

The suite runs with DEBUG off, as production does, so these are the pages users get.
This module is also the URLconf of the tests that need a view that fails.
"""

import pytest
from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.urls import get_resolver, path
from django.utils import translation

from config.urls import urlpatterns as site_urlpatterns


def refuse(request: HttpRequest) -> HttpResponse:
    raise PermissionDenied


def bad(request: HttpRequest) -> HttpResponse:
    raise SuspiciousOperation("a request made up to fail")


def crash(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a view that fails")


urlpatterns = [
    path("refuse/", refuse),
    path("bad/", bad),
    path("crash/", crash),
    *site_urlpatterns,
]


@pytest.fixture
def visitor(db) -> Client:
    return Client(raise_request_exception=False)


@pytest.mark.parametrize(
    ("language", "heading"),
    [("en", "Page not found"), ("ru", "Страница не найдена"), ("uk", "Сторінку не знайдено")],
)
def test_404_is_translated_and_in_the_site_layout(visitor, language, heading):
    response = visitor.get("/no-such-page/", HTTP_ACCEPT_LANGUAGE=language)

    page = response.content.decode()
    assert response.status_code == 404
    assert heading in page
    assert 'class="site-header"' in page


@pytest.mark.urls("tests.test_error_pages")
@pytest.mark.parametrize(
    ("url", "status", "heading"),
    [
        ("/refuse/", 403, "Доступ запрещён"),
        ("/bad/", 400, "Неверный запрос"),
        ("/crash/", 500, "Что-то пошло не так"),
    ],
)
def test_error_pages_speak_the_visitors_language(visitor, url, status, heading):
    response = visitor.get(url, HTTP_ACCEPT_LANGUAGE="ru")

    assert response.status_code == status
    assert heading in response.content.decode()


def test_500_page_renders_without_the_database(rf):
    # No django_db mark: any query here would raise.
    handler = get_resolver().resolve_error_handler(500)

    with translation.override("uk"):
        response = handler(rf.get("/"))

    page = response.content.decode()
    assert response.status_code == 500
    assert "Щось пішло не так" in page
    assert 'class="site-header"' in page


def test_expired_form_gets_a_page_that_says_what_to_do(db):
    browser = Client(enforce_csrf_checks=True)

    response = browser.post("/accounts/login/", {"username": "x", "password": "y"})

    assert response.status_code == 403
    assert "The form has expired" in response.content.decode()
