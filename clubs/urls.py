"""The clubs app's pages; config/urls.py includes them under ``clubs/``."""

from django.urls import path

from clubs import views

app_name = "clubs"

urlpatterns = [
    path("", views.club_list, name="list"),
    path("new/", views.club_new, name="new"),
    path("invite/<str:token>/", views.invitation, name="invitation"),
    path("<slug:slug>/", views.club_detail, name="detail"),
    path("<slug:slug>/messages/new/", views.club_message_new, name="message_new"),
    path("<slug:slug>/messages/<int:message_id>/", views.club_message, name="message"),
    path("<slug:slug>/seasons/<int:season_id>/", views.season, name="season"),
    path("<slug:slug>/seasons/<int:season_id>/csv/", views.season_csv, name="season_csv"),
    path("<slug:slug>/<slug:action>/", views.club_action, name="action"),
]
