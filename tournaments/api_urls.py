from django.urls import path

import core.converters  # noqa: F401  (registers <id:…>)
from tournaments import api

urlpatterns = [
    path("tournaments/", api.TournamentListView.as_view(), name="api-tournaments"),
    path(
        "tournaments/<id:tournament_id>/",
        api.TournamentDetailView.as_view(),
        name="api-tournament",
    ),
    path(
        "tournaments/<id:tournament_id>/entrants/",
        api.EntrantsView.as_view(),
        name="api-tournament-entrants",
    ),
    path(
        "tournaments/<id:tournament_id>/standings/",
        api.StandingsView.as_view(),
        name="api-tournament-standings",
    ),
    path(
        "tournaments/<id:tournament_id>/results/",
        api.ResultsView.as_view(),
        name="api-tournament-results",
    ),
    path(
        "tournaments/<id:tournament_id>/rounds/",
        api.RoundsView.as_view(),
        name="api-tournament-rounds",
    ),
    path(
        "tournaments/<id:tournament_id>/rounds/ahead/",
        api.RoundsAheadView.as_view(),
        name="api-tournament-rounds-ahead",
    ),
    path(
        "tournaments/<id:tournament_id>/register/",
        api.RegisterView.as_view(),
        name="api-tournament-register",
    ),
    path(
        "tournaments/<id:tournament_id>/withdraw/",
        api.WithdrawView.as_view(),
        name="api-tournament-withdraw",
    ),
    path(
        "tournaments/<id:tournament_id>/check-in/",
        api.CheckInView.as_view(),
        name="api-tournament-check-in",
    ),
]
