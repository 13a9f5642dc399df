from django.urls import path

from tournaments import api

urlpatterns = [
    path("tournaments/", api.TournamentListView.as_view(), name="api-tournaments"),
    path(
        "tournaments/<int:tournament_id>/",
        api.TournamentDetailView.as_view(),
        name="api-tournament",
    ),
    path(
        "tournaments/<int:tournament_id>/entrants/",
        api.EntrantsView.as_view(),
        name="api-tournament-entrants",
    ),
    path(
        "tournaments/<int:tournament_id>/standings/",
        api.StandingsView.as_view(),
        name="api-tournament-standings",
    ),
    path(
        "tournaments/<int:tournament_id>/results/",
        api.ResultsView.as_view(),
        name="api-tournament-results",
    ),
    path(
        "tournaments/<int:tournament_id>/rounds/",
        api.RoundsView.as_view(),
        name="api-tournament-rounds",
    ),
    path(
        "tournaments/<int:tournament_id>/register/",
        api.RegisterView.as_view(),
        name="api-tournament-register",
    ),
    path(
        "tournaments/<int:tournament_id>/withdraw/",
        api.WithdrawView.as_view(),
        name="api-tournament-withdraw",
    ),
    path(
        "tournaments/<int:tournament_id>/check-in/",
        api.CheckInView.as_view(),
        name="api-tournament-check-in",
    ),
]
