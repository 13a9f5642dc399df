"""Writes on accounts. Keyword-only, atomic; they raise ValidationError and change nothing."""

from django.contrib.auth.password_validation import validate_password
from django.db import transaction

from accounts.models import User


@transaction.atomic
def user_create(
    *,
    username: str,
    password: str,
    display_name: str = "",
    email: str = "",
) -> User:
    """Create a player account after validating the name and the password strength."""
    user = User(username=username, display_name=display_name.strip(), email=email)
    user.full_clean(exclude=["password"])
    validate_password(password, user)
    user.set_password(password)
    user.save()
    return user


@transaction.atomic
def user_profile_update(
    *,
    user: User,
    display_name: str,
    country: str,
    preferred_language: str,
) -> User:
    """Change what a player shows to others and the language of the site for them."""
    user.display_name = display_name.strip()
    user.country = country
    user.preferred_language = preferred_language
    user.full_clean(exclude=["password"])
    user.save(update_fields=["display_name", "country", "preferred_language"])
    return user


@transaction.atomic
def user_language_update(*, user: User, language: str) -> User:
    """Make ``language`` the player's preferred language (the header's language menu)."""
    user.preferred_language = User._meta.get_field("preferred_language").clean(language, user)
    user.save(update_fields=["preferred_language"])
    return user
