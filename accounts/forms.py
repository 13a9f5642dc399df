from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm

from accounts.models import User


class SignUpForm(UserCreationForm[User]):
    class Meta:
        model = User
        fields = ("username", "display_name")

    def validate_password_for_user(self, user: User, **kwargs: Any) -> None:
        """Say why a password is weak under "Password", where it was typed.

        Django puts these errors under the confirmation field; a mismatch stays there.
        (The ignore: django-stubs does not know this hook of Django 5.1's forms yet.)
        """
        super().validate_password_for_user(user, password_field_name="password1")  # type: ignore[misc]


class ProfileForm(forms.ModelForm[User]):
    class Meta:
        model = User
        fields = ("display_name", "country", "preferred_language")
