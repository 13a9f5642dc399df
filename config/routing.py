"""Websocket URL routes of every app, gathered for config.asgi."""

from django.urls import path

from core.echo import EchoConsumer
from games.consumers import LobbyConsumer, TableConsumer
from social.routing import websocket_urlpatterns as social_routes
from tournaments.routing import websocket_urlpatterns as tournament_routes

websocket_urlpatterns = [
    path("ws/echo/", EchoConsumer.as_asgi()),
    path("ws/tables/<int:table_id>/", TableConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    *tournament_routes,
    *social_routes,
]
