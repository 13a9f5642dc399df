"""The two reads an open socket's credential is checked with (core.ws_guard): the
account's credential generation (the user model's ``credential_generation``, which
``accounts.services.credential_generation_advance`` moves on at every revocation) and
whether its session still exists."""

from __future__ import annotations

from collections.abc import Iterable
from importlib import import_module

from django.conf import settings
from django.contrib.auth import get_user_model


def credential_generations(*, user_ids: Iterable[int]) -> dict[int, int]:
    """Each active account's credential generation (accounts.services.
    credential_generation_advance), by id; an account missing here is deactivated or gone.
    One query, however many accounts."""
    return dict(
        get_user_model()
        ._default_manager.filter(pk__in=set(user_ids), is_active=True)
        .values_list("pk", "credential_generation")
    )


def sessions_existing(*, session_keys: Iterable[str]) -> set[str]:
    """Those of ``session_keys`` whose session still exists and has not expired (signed out,
    or flushed, otherwise). One query with the database's session engine."""
    keys = set(session_keys)
    if not keys:
        return set()
    store = import_module(settings.SESSION_ENGINE).SessionStore
    if hasattr(store, "get_model_class"):  # the database's engines (db, cached_db)
        from django.utils import timezone

        model = store.get_model_class()
        return set(
            model.objects.filter(session_key__in=keys, expire_date__gt=timezone.now()).values_list(
                "session_key", flat=True
            )
        )
    return {key for key in keys if store().exists(key)}
