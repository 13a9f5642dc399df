"""Websocket routes of the tournaments, for config/routing.py."""

from django.urls import path

from tournaments.consumers import NotificationConsumer, TournamentConsumer

websocket_urlpatterns = [
    path("ws/tournaments/<int:tournament_id>/", TournamentConsumer.as_asgi()),
    path("ws/notifications/", NotificationConsumer.as_asgi()),
]
