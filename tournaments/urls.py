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
    path("<int:tournament_id>/seed/", views.give_seed, name="give_seed"),
    path("tables/<int:table_id>/panel/", views.table_panel, name="table_panel"),
    path("<int:tournament_id>/rounds/<int:number>/sheet/", views.round_sheet, name="round_sheet"),
    path(
        "<int:tournament_id>/rounds/<int:number>/boards/", views.round_boards, name="round_boards"
    ),
    path("<int:tournament_id>/standings/print/", views.standings_print, name="standings_print"),
    path("<int:tournament_id>/standings.csv", views.standings_csv, name="standings_csv"),
    path("<int:tournament_id>/results.csv", views.results_csv, name="results_csv"),
    path("notifications/", views.notifications, name="notifications"),
    path("notifications/read/", views.notifications_read, name="notifications_read"),
]
