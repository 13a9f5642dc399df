from django.contrib import admin
from django.urls import include, path
from django.utils.translation import gettext_lazy as _
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from accounts.views import set_language
from config.health import healthz
from core.pages import home, rules
from games.bots_views import bots
from games.views import play
from ratings.views import leaderboards
from tournaments.views import tournament_list

admin.site.site_header = _("Thousand administration")
admin.site.site_title = _("Thousand admin")
# The app list beside every page costs a third of a 1280-px screen: lists need it more.
admin.site.enable_nav_sidebar = False

urlpatterns = [
    path("", home, name="home"),
    path("rules/", rules, name="rules"),
    path("healthz", healthz, name="healthz"),
    path("play/", play, name="play"),
    path("bots/", bots, name="bots"),
    path("", include("games.urls")),
    path("tournaments/", tournament_list, name="tournaments"),
    path("tournaments/", include("tournaments.urls")),
    path("leaderboards/", leaderboards, name="leaderboards"),
    path("accounts/", include("accounts.urls")),
    path("i18n/setlang/", set_language, name="set_language"),
    path("", include("ratings.urls")),
    path("social/", include("social.urls")),
    path("clubs/", include("clubs.urls")),
    path("fair-play/", include("fairplay.urls")),
    path("admin/", admin.site.urls),
    path("api/v1/", include("accounts.api_urls")),
    path("api/v1/", include("games.api_urls")),
    path("api/v1/", include("ratings.api_urls")),
    path("api/v1/", include("tournaments.api_urls")),
    path("api/v1/", include("social.api_urls")),
    path("api/v1/", include("analysis.api_urls")),
    path("api/v1/", include("clubs.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
]
