from django.urls import path

from ratings.api import LeaderboardView, PlayerHistoryView, PlayerStatsView

urlpatterns = [
    path("leaderboard/", LeaderboardView.as_view(), name="api-leaderboard"),
    path("players/<str:username>/ratings/", PlayerHistoryView.as_view(), name="api-player-ratings"),
    path("players/<str:username>/stats/", PlayerStatsView.as_view(), name="api-player-stats"),
]
