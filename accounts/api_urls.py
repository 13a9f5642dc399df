from django.urls import path

from accounts.api import MeView, TokenView

urlpatterns = [
    path("me/", MeView.as_view(), name="api-me"),
    path("auth/token/", TokenView.as_view(), name="api-token"),
]
