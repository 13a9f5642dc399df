from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from config import views
from games.views import play
from ratings.views import leaderboards
from tournaments.views import tournament_list

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("play/", play, name="play"),
    path("tournaments/", tournament_list, name="tournaments"),
    path("tournaments/", include("tournaments.urls")),
    path("leaderboards/", leaderboards, name="leaderboards"),
    path("accounts/", include("accounts.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("api/v1/", include("accounts.api_urls")),
    path("api/v1/", include("games.api_urls")),
    path("api/v1/", include("tournaments.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
]
