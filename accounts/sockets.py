"""Every open websocket of a player closes when what signed it in may no longer hold:
his API token revoked or rotated (any deletion of it), his password changed, his
account deactivated, or a sign-out (docs/security.md "Websockets"). Connected to the
signals that say so (accounts.apps), so every way of doing those is covered: the API,
the pages, the admin.

The sockets themselves are closed by config.ws_guard (a group per user; a socket that
the message misses checks its credential again before it acts)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.signals import user_logged_out
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from rest_framework.authtoken.models import Token

from accounts.models import User


def user_sockets_close(*, user_id: int, reason: str) -> None:
    """Close every websocket of the user, on every server, once the current transaction
    (the revocation) has committed."""
    from config.ws_guard import sockets_close

    transaction.on_commit(lambda: sockets_close(user_id=user_id, reason=reason))


@receiver(post_delete, sender=Token, dispatch_uid="accounts.sockets.token")
def _token_deleted(sender: Any, instance: Token, **kwargs: Any) -> None:
    user_sockets_close(user_id=instance.user_id, reason="token revoked")


@receiver(post_save, sender=User, dispatch_uid="accounts.sockets.user")
def _user_saved(sender: Any, instance: User, created: bool, **kwargs: Any) -> None:
    if created:
        return
    # ``_password`` holds the new password from set_password() until the save that
    # stores it has finished (Django's AbstractBaseUser.save): a password change, by
    # whatever path (the page, the API, the admin, a reset).
    if getattr(instance, "_password", None) is not None:
        user_sockets_close(user_id=instance.pk, reason="password changed")
    elif not instance.is_active:
        user_sockets_close(user_id=instance.pk, reason="account deactivated")


@receiver(user_logged_out, dispatch_uid="accounts.sockets.logout")
def _signed_out(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    if user is not None and getattr(user, "pk", None) is not None:
        user_sockets_close(user_id=user.pk, reason="signed out")
