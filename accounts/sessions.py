"""Where an account is signed in: a :class:`~accounts.models.SignIn` per session, made at
sign-in and touched as the browser comes back (at most every ``SEEN_EVERY`` seconds)."""

from __future__ import annotations

import time
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponseBase

from accounts import services
from accounts.types import User
from core.middleware import SyncAndAsyncMiddleware

SEEN_KEY = "_signin_seen"
SEEN_EVERY = 300


def _user_agent(request: HttpRequest) -> str:
    return str(request.META.get("HTTP_USER_AGENT", ""))[:300]


@receiver(user_logged_in, dispatch_uid="accounts.sessions.signed_in")
def _on_signed_in(sender: Any, request: HttpRequest | None, user: User, **kwargs: Any) -> None:
    session = getattr(request, "session", None)
    if request is None or session is None:
        return
    if session.session_key is None:
        session.save()
    services.signin_record(
        user=user, session_key=str(session.session_key), user_agent=_user_agent(request)
    )
    session[SEEN_KEY] = time.time()


def _has_session(request: HttpRequest) -> bool:
    """Whether the request came with a session (reading one it did not would mark every
    anonymous response ``Vary: Cookie``)."""
    return hasattr(request, "session") and settings.SESSION_COOKIE_NAME in request.COOKIES


def _due(seen: Any) -> bool:
    return not isinstance(seen, float) or time.time() - seen >= SEEN_EVERY


def _touch(request: HttpRequest) -> None:
    key = request.session.session_key
    user = request.user
    if key and isinstance(user, User):
        services.signin_seen(user=user, session_key=key, user_agent=_user_agent(request))
        request.session[SEEN_KEY] = time.time()


class SignInSeenMiddleware(SyncAndAsyncMiddleware):
    """Notes when a signed-in browser was last seen (the sessions page)."""

    def __call__(self, request: HttpRequest) -> Any:
        if self.is_async:
            return self.__acall__(request)
        response = self.get_response(request)
        if _has_session(request) and _due(request.session.get(SEEN_KEY)):
            _touch(request)
        return response

    async def __acall__(self, request: HttpRequest) -> HttpResponseBase:
        response: HttpResponseBase = await self.get_response(request)
        if _has_session(request) and _due(await request.session.aget(SEEN_KEY)):
            await sync_to_async(_touch)(request)
        return response
