from django.urls import path

import core.converters  # noqa: F401  (registers <id:…>)
from analysis import api

urlpatterns = [
    path("tables/<id:table_id>/analysis/", api.AnalysisView.as_view(), name="api-table-analysis"),
    path(
        "tournaments/<id:tournament_id>/rounds/<int:number>/analysis/",
        api.RoundAnalysisView.as_view(),
        name="api-round-analysis",
    ),
    path("tables/<id:table_id>/hint/", api.HintView.as_view(), name="api-table-hint"),
    path(
        "players/<str:username>/analysis/",
        api.PlayerAnalysisView.as_view(),
        name="api-player-analysis",
    ),
]
