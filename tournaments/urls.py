"""Tournament pages; config/urls.py includes them under ``tournaments/`` (namespace
``tournaments``). The list itself keeps its global name ``tournaments``."""

from django.urls import path

from tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("<int:tournament_id>/", views.tournament_detail, name="detail"),
    path("<int:tournament_id>/register/", views.register, name="register"),
    path("<int:tournament_id>/withdraw/", views.withdraw, name="withdraw"),
    path("<int:tournament_id>/check-in/", views.check_in, name="check_in"),
    path("tables/<int:table_id>/panel/", views.table_panel, name="table_panel"),
]
