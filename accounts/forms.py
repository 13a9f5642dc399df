from django import forms
from django.contrib.auth.forms import UserCreationForm

from accounts.models import User


class SignUpForm(UserCreationForm[User]):
    class Meta:
        model = User
        fields = ("username", "display_name")


class ProfileForm(forms.ModelForm[User]):
    class Meta:
        model = User
        fields = ("display_name", "country", "preferred_language")
