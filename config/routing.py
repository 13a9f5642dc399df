"""Websocket URL routes of every app, gathered for config.asgi."""

from django.urls import path

from config.consumers import EchoConsumer

websocket_urlpatterns = [
    path("ws/echo/", EchoConsumer.as_asgi()),
]
