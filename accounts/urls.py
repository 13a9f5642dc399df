from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import email_views, reset_views, views
from accounts.forms import SignInForm

app_name = "accounts"

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path(
        "login/",
        auth_views.LoginView.as_view(
            template_name="accounts/login.html",
            redirect_authenticated_user=True,
            authentication_form=SignInForm,
        ),
        name="login",
    ),
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
    path("email/", email_views.email_change, name="email"),
    path("email/confirm/<str:token>/", email_views.email_confirm_view, name="email_confirm"),
]
