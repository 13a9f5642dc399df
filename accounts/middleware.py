import zoneinfo
from collections.abc import Awaitable, Callable
from contextlib import ExitStack
from typing import Any

from django.http import HttpRequest, HttpResponseBase
from django.utils import timezone, translation

from accounts.types import Visitor
from core.middleware import SyncAndAsyncMiddleware


class PlayerPreferencesMiddleware(SyncAndAsyncMiddleware):
    """A signed-in player's own language and time zone, from his profile, for the request.

    * The preferred language wins over the cookie and the browser's; the header's
      language menu changes the preference itself (accounts.views.set_language).
    * The time zone: every date and time the pages and the admin show, and the times an
      organiser types into the admin, are in it. Without one, the site's (``TIME_ZONE``).

    Runs after LocaleMiddleware and AuthenticationMiddleware. Sync and async, so an ASGI
    request is not handed to a thread here.
    """

    def __call__(self, request: HttpRequest) -> Any:
        if self.is_async:
            return self.__acall__(request)
        with ExitStack() as preferences:
            language = _apply(preferences, request, request.user)
            response: HttpResponseBase = self.get_response(request)
        if language:
            response.headers["Content-Language"] = language
        return response

    async def __acall__(self, request: HttpRequest) -> HttpResponseBase:
        get_response: Callable[[HttpRequest], Awaitable[HttpResponseBase]] = self.get_response
        with ExitStack() as preferences:
            language = _apply(preferences, request, await request.auser())
            response = await get_response(request)
        if language:
            response.headers["Content-Language"] = language
        return response


def _apply(preferences: ExitStack, request: HttpRequest, user: Visitor) -> str:
    """Enter the player's language and zone for the request; returns the language set."""
    language: str = getattr(user, "preferred_language", "")
    if language:
        request.LANGUAGE_CODE = language
        preferences.enter_context(translation.override(language))
    zone = _zone(getattr(user, "time_zone", ""))
    if zone is not None:
        preferences.enter_context(timezone.override(zone))
    return language


def _zone(name: str) -> zoneinfo.ZoneInfo | None:
    """The zone a player chose, or None for the site's (also for a name the zone database
    of this machine no longer knows: a page must not fail on it)."""
    if not name:
        return None
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return None
