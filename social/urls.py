"""The social app's pages; config/urls.py includes them under ``social/``."""

from django.urls import path

from social import views

app_name = "social"

urlpatterns = [
    path("friends/", views.friends, name="friends"),
    path("challenge/", views.challenge, name="challenge"),
    path("settings/", views.social_settings, name="settings"),
    path("players/<slug:action>/", views.relation, name="relation"),
]
