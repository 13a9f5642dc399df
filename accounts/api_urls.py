from django.urls import path

from accounts.api import MeView, SignupView, TokenRotateView, TokenView

urlpatterns = [
    path("me/", MeView.as_view(), name="api-me"),
    path("auth/token/", TokenView.as_view(), name="api-token"),
    path("auth/token/rotate/", TokenRotateView.as_view(), name="api-token-rotate"),
    path("auth/signup/", SignupView.as_view(), name="api-signup"),
]
