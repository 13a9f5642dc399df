from django.urls import path

from accounts import (
    account_views,
    email_views,
    notice_views,
    reset_views,
    two_factor_views,
    views,
)

app_name = "accounts"

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", two_factor_views.SignInView.as_view(), name="login"),
    path("login/code/", two_factor_views.signin_code, name="login_code"),
    path("two-factor/", two_factor_views.two_factor, name="two_factor"),
    path("logout/", views.logout_view, name="logout"),
    path("profile/", views.profile, name="profile"),
    path("password/", views.password_change, name="password_change"),
    path("password/reset/", reset_views.password_reset, name="password_reset"),
    path("password/reset/sent/", reset_views.password_reset_sent, name="password_reset_sent"),
    path(
        "password/reset/<uidb64>/<token>/",
        reset_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path("sessions/", account_views.sessions, name="sessions"),
    path("data/", account_views.data_download, name="data"),
    path("close/", account_views.close, name="close"),
    path("email/", email_views.email_change, name="email"),
    path("email/confirm/<str:token>/", email_views.email_confirm_view, name="email_confirm"),
    path("notices/", notice_views.notices, name="notices"),
    path("notices/off/<str:token>/", notice_views.unsubscribe, name="notice_unsubscribe"),
]
