"""Every open websocket of a player closes when what signed it in may no longer hold:
his API token revoked or rotated (any deletion of it), his password changed, his
account deactivated, or a sign-out (docs/security.md "Websockets"). Connected to the
signals that say so (accounts.apps), so every way of doing those is covered: the API,
the pages, the admin.

Each of them advances the account's credential generation in PostgreSQL, in the
revocation's own transaction (accounts.services.credential_generation_advance): every
socket checks it, so a revocation reaches the sockets whatever becomes of Redis. A
message through the channel layer then closes them at once (core.ws_guard: a group per
user); a socket it misses finds out at its next check."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.signals import user_logged_out
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from rest_framework.authtoken.models import Token

from accounts.models import User
from accounts.services import credential_generation_advance


def user_sockets_close(*, user: User, reason: str) -> None:
    """Revoke every websocket of the user: his credential generation is advanced in the
    current transaction (the revocation's), and once it has committed every socket of his,
    on every server, is told to close."""
    from core.ws_guard import sockets_close

    credential_generation_advance(user=user)
    user_id = user.pk
    transaction.on_commit(lambda: sockets_close(user_id=user_id, reason=reason))


@receiver(post_delete, sender=Token, dispatch_uid="accounts.sockets.token")
def _token_deleted(sender: Any, instance: Token, **kwargs: Any) -> None:
    # Only the id: the account itself may be on its way out (a deletion's cascade).
    user_sockets_close(user=User(pk=instance.user_id), reason="token revoked")


@receiver(post_save, sender=User, dispatch_uid="accounts.sockets.user")
def _user_saved(sender: Any, instance: User, created: bool, **kwargs: Any) -> None:
    if created:
        return
    # ``_password`` holds the new password from set_password() until the save that
    # stores it has finished (Django's AbstractBaseUser.save): a password change, by
    # whatever path (the page, the API, the admin, a reset).
    if getattr(instance, "_password", None) is not None:
        user_sockets_close(user=instance, reason="password changed")
    elif not instance.is_active:
        user_sockets_close(user=instance, reason="account deactivated")


@receiver(user_logged_out, dispatch_uid="accounts.sockets.logout")
def _signed_out(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    if isinstance(user, User) and user.pk is not None:
        user_sockets_close(user=user, reason="signed out")
