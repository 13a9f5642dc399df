from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.http import HttpRequest, HttpResponseBase
from django.utils import translation


class PreferredLanguageMiddleware:
    """A signed-in player's preferred language wins over the cookie and the browser's.

    Runs after LocaleMiddleware and AuthenticationMiddleware. The header's language menu
    changes the preference itself (accounts.views.set_language). Sync and async, so an
    ASGI request is not handed to a thread here.
    """

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        if self.is_async:
            return self.__acall__(request)
        language = getattr(request.user, "preferred_language", "")
        if not language:
            return self.get_response(request)
        request.LANGUAGE_CODE = language
        with translation.override(language):
            response: HttpResponseBase = self.get_response(request)
        response.headers["Content-Language"] = language
        return response

    async def __acall__(self, request: HttpRequest) -> HttpResponseBase:
        get_response: Callable[[HttpRequest], Awaitable[HttpResponseBase]] = self.get_response
        language = getattr(await request.auser(), "preferred_language", "")
        if not language:
            return await get_response(request)
        request.LANGUAGE_CODE = language
        with translation.override(language):
            response = await get_response(request)
        response.headers["Content-Language"] = language
        return response
