"""A base for the project's middleware that runs as the stack does, sync under WSGI and
the test client, async under ASGI, so that an ASGI request is never handed to a thread
for it (Django adapts a sync-only middleware with sync_to_async)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.http import HttpRequest, HttpResponseBase


class SyncAndAsyncMiddleware:
    """Subclasses define :meth:`before` (may raise, e.g. Http404) and :meth:`after`, or
    override ``__call__`` and ``__acall__`` themselves."""

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
        self.before(request)
        return self.after(request, self.get_response(request))

    async def __acall__(self, request: HttpRequest) -> HttpResponseBase:
        self.before(request)
        get_response: Callable[[HttpRequest], Awaitable[HttpResponseBase]] = self.get_response
        return self.after(request, await get_response(request))

    def before(self, request: HttpRequest) -> None:
        return None

    def after(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        return response
