from django.urls import path

from accounts.api import MeView, SignupView, TokenView

urlpatterns = [
    path("me/", MeView.as_view(), name="api-me"),
    path("auth/token/", TokenView.as_view(), name="api-token"),
    path("auth/signup/", SignupView.as_view(), name="api-signup"),
]
