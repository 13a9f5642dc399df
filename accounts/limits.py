"""Limits on accounts that hold across processes (docs/security.md): they count in the
shared cache (Redis on the full stack, local memory in the embedded default).

* Sign-ups: ``ACCOUNTS_SIGNUP_RATE`` per client address, for the API and the
  sign-up page together.
* Failed sign-ins: after ``SIGNIN_FAILURES_PER_ACCOUNT`` wrong passwords for one account,
  or ``SIGNIN_FAILURES_PER_ADDRESS`` from one address, within ``SIGNIN_LOCKOUT_SECONDS``,
  sign-in is refused for that account or address until ``SIGNIN_LOCKOUT_SECONDS`` after
  the last counted failure. Every way in (the token API, the sign-in page, the admin's)
  goes through ``authenticate()``: :class:`LockoutBackend` refuses a locked one and the
  ``user_login_failed`` signal counts.
* Known devices: those locks are for browsers and clients unknown to
  the account. A browser that signed in to an account before carries a signed device
  cookie (``SIGNIN_DEVICE_COOKIE``, OWASP's "device cookies") naming that account and a
  random nonce; for it only its own failures count, ``SIGNIN_FAILURES_PER_ACCOUNT`` of
  them lock that device alone. So a stranger's wrong passwords, from anywhere, cannot
  keep the owner out of his own account on his own browser.

The client address is ``REMOTE_ADDR``, which core.client_address already made the
client's behind ``DJANGO_TRUSTED_PROXIES`` proxies (the same address the websockets use).
"""

from __future__ import annotations

import hashlib
import math
import secrets
import time
from typing import Any

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.core import signing
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponseBase
from django.utils.translation import ngettext
from rest_framework.throttling import SimpleRateThrottle

from accounts.types import User
from core.middleware import SyncAndAsyncMiddleware


def client_address(request: HttpRequest | Any) -> str:
    """The caller's address: ``REMOTE_ADDR``, set from the ASGI scope's client, which
    core.client_address set behind trusted proxies (never X-Forwarded-For here)."""
    return str(request.META.get("REMOTE_ADDR") or "")


class SignupThrottle(SimpleRateThrottle):
    """Accounts created per client address, by the API and the sign-up page together."""

    scope = "signup"

    def get_rate(self) -> str:
        # A setting read on each request (the throttle is made per request), not DRF's
        # class-level DEFAULT_THROTTLE_RATES, which is read once at import.
        return str(settings.ACCOUNTS_SIGNUP_RATE)

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


def _subjects(
    username: str | None, address: str, device: str | None = None
) -> list[tuple[str, int]]:
    """The counters a sign-in attempt is checked and counted against: the account's and
    the address's, or, from a known device, that device's alone."""
    if username and device:
        return [(_key("device", f"{username}:{device}"), settings.SIGNIN_FAILURES_PER_ACCOUNT)]
    subjects = [(_key("address", address), settings.SIGNIN_FAILURES_PER_ADDRESS)]
    if username:
        subjects.append((_key("account", username), settings.SIGNIN_FAILURES_PER_ACCOUNT))
    return subjects


def signin_locked_for(
    *, username: str | None, address: str, device: str | None = None
) -> float | None:
    """Seconds until sign-in is possible again for this account or address (or this known
    device of the account), or None."""
    now = time.time()
    waits = [
        until - now
        for key, _limit in _subjects(username, address, device)
        if (until := cache.get(key + ":until")) is not None and until > now
    ]
    return max(waits) if waits else None


def signin_failure_record(*, username: str | None, address: str, device: str | None = None) -> None:
    """Count one failed sign-in for the account and the address (or the known device);
    lock what reached its limit."""
    window = settings.SIGNIN_LOCKOUT_SECONDS
    for key, limit in _subjects(username, address, device):
        cache.add(key, 0, timeout=window)
        try:
            failures = cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.set(key, 1, timeout=window)
            failures = 1
        cache.touch(key, window)
        if failures >= limit:
            cache.set(key + ":until", time.time() + window, timeout=window)


def signin_success_record(*, username: str, device: str | None = None) -> None:
    """A right password clears the account's count (not the address's), and the device's."""
    keys = [_key("account", username)]
    if device:
        keys.append(_key("device", f"{username}:{device}"))
    cache.delete_many(keys)


# ------------------------------------------------------------------ known devices

DEVICE_SALT = "accounts.limits.device"
DEVICES_KEPT = 5  # accounts one browser is known for (a family's shared computer)
DEVICE_COOKIE_ATTRIBUTE = "signin_device_cookie"  # on the request, for the middleware


def _account_tag(username: str) -> str:
    """An account in the device cookie: a hash, so the cookie does not list the names
    signed in on a shared computer."""
    return hashlib.sha256(username.lower().encode()).hexdigest()[:16]


def _devices(request: HttpRequest | Any) -> dict[str, str]:
    """The accounts this browser signed in to before: account tag → nonce."""
    raw = request.COOKIES.get(settings.SIGNIN_DEVICE_COOKIE) if request is not None else None
    if not raw:
        return {}
    try:
        value = signing.loads(raw, salt=DEVICE_SALT, max_age=settings.SIGNIN_DEVICE_SECONDS)
    except signing.BadSignature:
        return {}
    if not isinstance(value, dict):
        return {}
    return {str(tag): str(nonce) for tag, nonce in value.items()}


def known_device(request: HttpRequest | Any, username: str | None) -> str | None:
    """This browser's nonce for the account, if it signed in to it before, else None."""
    if not username:
        return None
    return _devices(request).get(_account_tag(username))


def signin_wait(request: HttpRequest | Any, username: str | None) -> float | None:
    """Seconds this request must wait before it may try to sign in to ``username``."""
    return signin_locked_for(
        username=username,
        address=client_address(request),
        device=known_device(request, username),
    )


def signin_succeeded(request: HttpRequest | Any, username: str) -> None:
    """Clear the counts, and make this browser a known device of the account: a new
    nonce, sent back in the device cookie by :class:`DeviceCookieMiddleware`."""
    signin_success_record(username=username, device=known_device(request, username))
    devices = _devices(request)
    tag = _account_tag(username)
    devices.pop(tag, None)
    devices[tag] = secrets.token_urlsafe(12)
    kept = dict(list(devices.items())[-DEVICES_KEPT:])
    target = getattr(request, "_request", request)  # DRF's Request wraps Django's
    setattr(target, DEVICE_COOKIE_ATTRIBUTE, signing.dumps(kept, salt=DEVICE_SALT, compress=True))


class DeviceCookieMiddleware(SyncAndAsyncMiddleware):
    """Sends the device cookie a successful sign-in made (:func:`signin_succeeded`)."""

    def after(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        value = getattr(request, DEVICE_COOKIE_ATTRIBUTE, None)
        if value is not None:
            response.set_cookie(
                settings.SIGNIN_DEVICE_COOKIE,
                value,
                max_age=settings.SIGNIN_DEVICE_SECONDS,
                secure=settings.SESSION_COOKIE_SECURE,
                httponly=True,
                samesite="Lax",
            )
        return response


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
        wait = signin_wait(request, username) if request is not None else None
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
    username = credentials.get("username")
    signin_failure_record(
        username=username,
        address=client_address(request),
        device=known_device(request, username),
    )


@receiver(user_logged_in, dispatch_uid="accounts.limits.succeeded")
def _on_signed_in(sender: Any, request: HttpRequest | None, user: User, **kwargs: Any) -> None:
    if request is None:
        signin_success_record(username=user.get_username())
    else:
        signin_succeeded(request, user.get_username())


# ------------------------------------------------------------------ password-reset mails


def reset_allowed(*, email: str, address: str, user_id: int | None) -> bool:
    """Count one password-reset request; False when the address typed, the account or the
    client address asked too often within the hour (``ACCOUNTS_RESETS_PER_HOUR``, ten
    times that per client address). The caller answers the same either way."""
    per_hour = settings.ACCOUNTS_RESETS_PER_HOUR
    subjects = [
        (_key("reset-email", email), per_hour),
        (_key("reset-address", address), per_hour * 10),
    ]
    if user_id is not None:
        subjects.append((_key("reset-account", str(user_id)), per_hour))
    allowed = True
    for key, limit in subjects:
        cache.add(key, 0, timeout=3600)
        try:
            count = cache.incr(key)
        except ValueError:
            cache.set(key, 1, timeout=3600)
            count = 1
        allowed = allowed and count <= limit
    return allowed
