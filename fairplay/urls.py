from django.urls import path

from fairplay.views import fair_play_rules

app_name = "fairplay"

urlpatterns = [path("", fair_play_rules, name="rules")]
