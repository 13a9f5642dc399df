"""``{% load ratings_tags %}{% profile_ratings user %}``: the ratings part of a profile."""

from __future__ import annotations

from typing import Any

from django import template

from accounts.types import User
from ratings.presenters import profile_context

register = template.Library()


@register.inclusion_tag("ratings/_profile_ratings.html")
def profile_ratings(user: User) -> dict[str, Any]:
    return {"player": user, **profile_context(user)}
