"""The site's own pages: the home page and the rules."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import get_language

from core.rules import rules_page


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


def rules(request: HttpRequest) -> HttpResponse:
    """The rules of Thousand and every table option, in the page's language."""
    return render(request, "rules.html", {"rules": rules_page(get_language())})
