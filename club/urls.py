"""The club's pages; config/urls.py includes them under ``club/``."""

from django.urls import path

from club import views

app_name = "club"

urlpatterns = [
    path("friends/", views.friends, name="friends"),
    path("challenge/", views.challenge, name="challenge"),
    path("settings/", views.social_settings, name="settings"),
    path("players/<slug:action>/", views.relation, name="relation"),
]
