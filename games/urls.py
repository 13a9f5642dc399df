"""The game pages; config/urls.py includes them at the root: ``path("", include("games.urls"))``."""

from django.urls import path

from games import replay_views, views

app_name = "games"

urlpatterns = [
    path("play/", views.play, name="lobby"),
    path("play/tables/", views.lobby_tables, name="lobby_tables"),
    path("play/new/", views.table_create, name="create"),
    path("play/bots/", views.play_bots, name="play_bots"),
    path("tables/<int:table_id>/", views.table, name="table"),
    path("tables/<int:table_id>/join/", views.table_join, name="join"),
    path("tables/<int:table_id>/leave/", views.table_leave, name="leave"),
    path("tables/<int:table_id>/bots/", views.table_add_bot, name="add_bot"),
    path("tables/<int:table_id>/start/", views.table_start, name="start"),
    path("tables/<int:table_id>/resign/", views.table_resign, name="resign"),
    path("tables/<int:table_id>/rematch/", views.table_rematch, name="rematch"),
    path("tables/<int:table_id>/replay/", replay_views.replay, name="replay"),
    path(
        "tables/<int:table_id>/replay/deals/<int:number>/",
        replay_views.replay_deal_frames,
        name="replay_deal",
    ),
    path("matches/", views.my_matches, name="matches"),
    # Browsers ask every site for /favicon.ico; without one each page logs a 404 error.
    path("favicon.ico", views.favicon),
]
