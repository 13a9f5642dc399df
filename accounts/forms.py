from typing import Any

from django import forms
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm

from accounts import limits
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


class SignInForm(AuthenticationForm):
    """Django's sign-in form, saying when a locked account or address may try again
    (accounts/limits.py counts the failures)."""

    def clean(self) -> dict[str, Any]:
        try:
            return super().clean()
        except forms.ValidationError:
            wait = getattr(self.request, "signin_locked_for", None)
            if wait is None and self.request is not None:
                wait = limits.signin_locked_for(
                    username=self.cleaned_data.get("username"),
                    address=limits.client_address(self.request),
                )
            if wait is not None:
                raise forms.ValidationError(limits.locked_message(wait), code="locked") from None
            raise
