from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.utils.translation import gettext_lazy as _

from accounts import limits
from accounts.models import NoticeKind, User
from accounts.timezones import zone_choices


class SignUpForm(UserCreationForm[User]):
    email = forms.EmailField(
        label=_("E-mail address"),
        required=False,
        help_text=_(
            "Optional. Needed to reset a forgotten password; we send a link to confirm it."
        ),
    )

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
        fields = ("display_name", "country", "preferred_language", "time_zone")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # A select of the IANA zones by region; empty is the site's own zone.
        site_zone = _("The site's zone (%(zone)s)") % {"zone": settings.TIME_ZONE}
        self.fields["time_zone"] = forms.ChoiceField(
            label=self.fields["time_zone"].label,
            help_text=self.fields["time_zone"].help_text,
            required=False,
            choices=[("", site_zone), *zone_choices()],
        )


class SignInForm(AuthenticationForm):
    """Django's sign-in form, saying when a locked account or address may try again
    (accounts/limits.py counts the failures)."""

    def clean(self) -> dict[str, Any]:
        try:
            return super().clean()
        except forms.ValidationError:
            wait = getattr(self.request, "signin_locked_for", None)
            if wait is None and self.request is not None:
                wait = limits.signin_wait(self.request, self.cleaned_data.get("username"))
            if wait is not None:
                raise forms.ValidationError(limits.locked_message(wait), code="locked") from None
            raise


class EmailForm(forms.Form):
    email = forms.EmailField(label=_("New address"), max_length=254)


class NoticesForm(forms.Form):
    notices = forms.MultipleChoiceField(
        label=_("Mail me"),
        choices=NoticeKind.choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
