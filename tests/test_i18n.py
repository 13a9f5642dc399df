import pytest
from django.urls import reverse
from django.utils import translation

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "tournaments", "sign_up"),
    [
        ("en", "Tournaments", "Sign up"),
        ("ru", "Турниры", "Регистрация"),
        ("uk", "Турніри", "Реєстрація"),
    ],
)
def test_navigation_is_translated(client, language, tournaments, sign_up):
    page = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE=language).content.decode()

    assert tournaments in page
    assert sign_up in page


def test_chosen_language_is_remembered(client):
    client.post(reverse("set_language"), {"language": "uk", "next": "/"})

    assert "Турніри" in client.get(reverse("home")).content.decode()


@pytest.mark.parametrize("language", ["ru", "uk"])
def test_password_errors_are_translated(language):
    from accounts.forms import SignUpForm

    with translation.override(language):
        form = SignUpForm({"username": "x", "password1": "1", "password2": "1"})
        form.is_valid()
        errors = " ".join(form.errors["password1"])

    assert "too short" not in errors
