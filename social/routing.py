"""Websocket routes of the social app, for config/routing.py."""

from django.urls import path

from social.consumers import SocialConsumer

websocket_urlpatterns = [
    path("ws/social/", SocialConsumer.as_asgi()),
]
