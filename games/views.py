from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def play(request: HttpRequest) -> HttpResponse:
    return render(request, "games/play.html")
