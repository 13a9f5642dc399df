"""The fair-play rules page: what the site asks of players and how it watches over rated
play, in general terms (never a flag, a score or a player: those are the moderators')."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def fair_play_rules(request: HttpRequest) -> HttpResponse:
    return render(request, "fairplay/rules.html")
