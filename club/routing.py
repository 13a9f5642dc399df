"""Websocket routes of the club, for config/routing.py."""

from django.urls import path

from club.consumers import ClubConsumer

websocket_urlpatterns = [
    path("ws/club/", ClubConsumer.as_asgi()),
]
