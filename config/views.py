from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import get_language
from django.views.decorators.cache import never_cache

from config.health import health_report
from config.rules import rules_page


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


def rules(request: HttpRequest) -> HttpResponse:
    """The rules of Thousand and every table option, in the page's language."""
    return render(request, "rules.html", {"rules": rules_page(get_language())})


@never_cache
async def healthz(request: HttpRequest) -> JsonResponse:
    """JSON status of the database, channel layer, broker and scheduler; 503 unless all are ok."""
    report = await health_report()
    return JsonResponse(report, status=200 if report["status"] == "ok" else 503)
