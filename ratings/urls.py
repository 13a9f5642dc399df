from django.urls import path

from ratings import views

app_name = "ratings"

urlpatterns = [
    path("players/<str:username>/", views.player, name="player"),
]
