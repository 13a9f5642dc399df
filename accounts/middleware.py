from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import translation


class PreferredLanguageMiddleware:
    """A signed-in player's preferred language wins over the browser's.

    Runs after LocaleMiddleware and AuthenticationMiddleware.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        language = getattr(user, "preferred_language", "") if user else ""
        if not language:
            return self.get_response(request)
        request.LANGUAGE_CODE = language
        with translation.override(language):
            response = self.get_response(request)
        response.headers["Content-Language"] = language
        return response
