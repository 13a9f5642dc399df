"""Limits on accounts that hold across processes (docs/security.md): they count in the
shared cache (Redis on the full stack, local memory in the embedded default).

* Sign-ups: ``DEFAULT_THROTTLE_RATES["signup"]`` per client address, for the API and the
  sign-up page together.
* Failed sign-ins: after ``SIGNIN_FAILURES_PER_ACCOUNT`` wrong passwords for one account,
  or ``SIGNIN_FAILURES_PER_ADDRESS`` from one address, within ``SIGNIN_LOCKOUT_SECONDS``,
  sign-in is refused for that account or address until ``SIGNIN_LOCKOUT_SECONDS`` after
  the last counted failure. Every way in (the token API, the sign-in page, the admin's)
  goes through ``authenticate()``: :class:`LockoutBackend` refuses a locked one and the
  ``user_login_failed`` signal counts.

The client address is ``REMOTE_ADDR`` unless ``DJANGO_TRUSTED_PROXIES`` (DRF's
``NUM_PROXIES``) says how many proxies in front of the server append to
``X-Forwarded-For``; then it is the address that many places from its end.
"""

from __future__ import annotations

import hashlib
import math
import time
from typing import Any

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.dispatch import receiver
from django.http import HttpRequest
from django.utils.translation import ngettext
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

from accounts.types import User


def client_address(request: HttpRequest | Any) -> str:
    """The caller's address, trusting X-Forwarded-For only as far as configured."""
    meta = request.META
    remote = str(meta.get("REMOTE_ADDR") or "")
    proxies = api_settings.NUM_PROXIES
    forwarded = meta.get("HTTP_X_FORWARDED_FOR")
    if not proxies or not forwarded:
        return remote
    hops = [hop.strip() for hop in str(forwarded).split(",") if hop.strip()]
    return hops[-min(proxies, len(hops))] if hops else remote


class SignupThrottle(SimpleRateThrottle):
    """Accounts created per client address, by the API and the sign-up page together."""

    scope = "signup"

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": client_address(request)}


def signup_allowed(request: HttpRequest) -> float | None:
    """Count one sign-up attempt from the page; None if allowed, else seconds to wait."""
    throttle = SignupThrottle()
    # A page is no DRF view: the throttle reads only request.META and the cache.
    if throttle.allow_request(request, None):  # type: ignore[arg-type]
        return None
    return throttle.wait() or 1.0


# ------------------------------------------------------------------ failed sign-ins


def _key(kind: str, value: str) -> str:
    digest = hashlib.sha256(value.lower().encode()).hexdigest()[:32]
    return f"signin:{kind}:{digest}"


def _subjects(username: str | None, address: str) -> list[tuple[str, int]]:
    subjects = [(_key("address", address), settings.SIGNIN_FAILURES_PER_ADDRESS)]
    if username:
        subjects.append((_key("account", username), settings.SIGNIN_FAILURES_PER_ACCOUNT))
    return subjects


def signin_locked_for(*, username: str | None, address: str) -> float | None:
    """Seconds until sign-in is possible again for this account or address, or None."""
    now = time.time()
    waits = [
        until - now
        for key, _limit in _subjects(username, address)
        if (until := cache.get(key + ":until")) is not None and until > now
    ]
    return max(waits) if waits else None


def signin_failure_record(*, username: str | None, address: str) -> None:
    """Count one failed sign-in for the account and the address; lock what reached its
    limit."""
    window = settings.SIGNIN_LOCKOUT_SECONDS
    for key, limit in _subjects(username, address):
        cache.add(key, 0, timeout=window)
        try:
            failures = cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.set(key, 1, timeout=window)
            failures = 1
        cache.touch(key, window)
        if failures >= limit:
            cache.set(key + ":until", time.time() + window, timeout=window)


def signin_success_record(*, username: str) -> None:
    """A right password clears the account's count (not the address's)."""
    cache.delete_many([_key("account", username)])


def locked_message(seconds: float) -> str:
    minutes = max(1, math.ceil(seconds / 60))
    return ngettext(
        "Too many failed sign-ins. Try again in %(minutes)d minute.",
        "Too many failed sign-ins. Try again in %(minutes)d minutes.",
        minutes,
    ) % {"minutes": minutes}


class SigninLocked(PermissionDenied):
    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        super().__init__(locked_message(seconds))


class LockoutBackend(ModelBackend):
    """Django's ModelBackend, first in AUTHENTICATION_BACKENDS, that refuses a sign-in
    for a locked account or from a locked address before any password check
    (PermissionDenied stops every backend)."""

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> Any:
        address = client_address(request) if request is not None else ""
        wait = signin_locked_for(username=username, address=address)
        if wait is not None:
            if request is not None:
                request.signin_locked_for = wait  # type: ignore[attr-defined]
            raise SigninLocked(wait)
        return super().authenticate(request, username=username, password=password, **kwargs)


@receiver(user_login_failed, dispatch_uid="accounts.limits.failed")
def _on_failed(
    sender: Any, credentials: dict[str, Any], request: HttpRequest | None = None, **kwargs: Any
) -> None:
    if request is None or getattr(request, "signin_locked_for", None) is not None:
        return  # refused while locked: not a password tried
    signin_failure_record(username=credentials.get("username"), address=client_address(request))


@receiver(user_logged_in, dispatch_uid="accounts.limits.succeeded")
def _on_signed_in(sender: Any, request: HttpRequest | None, user: User, **kwargs: Any) -> None:
    signin_success_record(username=user.get_username())
