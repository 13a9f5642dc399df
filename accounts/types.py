"""The types of the people services and selectors are given.

- :class:`~accounts.models.User`: a signed-in person (a service that changes something for
  him takes one);
- :data:`Visitor`: whoever a request or a socket comes from, signed in or not (pages,
  selectors and the table sockets serve anonymous visitors too);
- :func:`person` and :func:`signed_in` narrow a visitor to the person.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied

from accounts.models import User

type Visitor = User | AnonymousUser

__all__ = ["User", "Visitor", "person", "signed_in"]


def person(user: Visitor | None) -> User | None:
    """``user`` when it is a signed-in person; None for an anonymous visitor (or none)."""
    return user if isinstance(user, User) else None


def signed_in(user: Visitor) -> User:
    """The person a page or an endpoint that requires signing in serves (``login_required``,
    ``IsAuthenticated``, the admin site): ``request.user``, typed as the user model. An
    anonymous visitor never gets this far; should one, he is refused (403)."""
    if not isinstance(user, User):
        raise PermissionDenied
    return user
