from django.urls import path

import core.converters  # noqa: F401  (registers <id:…>)
from games import api

urlpatterns = [
    path("tables/", api.TableListView.as_view(), name="api-tables"),
    path("tables/mine/", api.MyTablesView.as_view(), name="api-tables-mine"),
    path("tables/play-bots/", api.QuickPlayView.as_view(), name="api-tables-play-bots"),
    path("tables/<id:table_id>/", api.TableDetailView.as_view(), name="api-table"),
    path("tables/<id:table_id>/join/", api.TableJoinView.as_view(), name="api-table-join"),
    path("tables/<id:table_id>/leave/", api.TableLeaveView.as_view(), name="api-table-leave"),
    path("tables/<id:table_id>/bots/", api.TableBotView.as_view(), name="api-table-bots"),
    path("tables/<id:table_id>/start/", api.TableStartView.as_view(), name="api-table-start"),
    path("tables/<id:table_id>/resign/", api.TableResignView.as_view(), name="api-table-resign"),
    path("tables/<id:table_id>/record/", api.TableRecordView.as_view(), name="api-table-record"),
]
