"""Reads on accounts that other parts of the site need."""

from __future__ import annotations

from collections.abc import Iterable
from importlib import import_module

from django.conf import settings

from accounts.models import SignIn, User


def credential_generations(*, user_ids: Iterable[int]) -> dict[int, int]:
    """Each active account's credential generation (accounts.services.
    credential_generation_advance), by id; an account missing here is deactivated or gone.
    One query, however many accounts."""
    return dict(
        User.objects.filter(pk__in=set(user_ids), is_active=True).values_list(
            "pk", "credential_generation"
        )
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


def signins_of(*, user: User) -> list[SignIn]:
    """Where the account is signed in, the most recently seen first."""
    return list(SignIn.objects.filter(user=user).order_by("-last_seen"))


def device_label(user_agent: str) -> str:
    """A short name for the browser and system a User-Agent names ("Firefox, Linux")."""
    browsers = (
        ("Edg/", "Edge"),
        ("OPR/", "Opera"),
        ("Firefox/", "Firefox"),
        ("Chrome/", "Chrome"),
        ("Safari/", "Safari"),
    )
    systems = (
        ("Android", "Android"),
        ("iPhone", "iPhone"),
        ("iPad", "iPad"),
        ("Windows", "Windows"),
        ("Mac OS X", "macOS"),
        ("Linux", "Linux"),
    )
    browser = next((name for mark, name in browsers if mark in user_agent), "")
    system = next((name for mark, name in systems if mark in user_agent), "")
    return ", ".join(part for part in (browser, system) if part) or user_agent[:60]
