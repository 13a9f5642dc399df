"""One error shape for everything under /api/ (docs/protocol.md §2):

    {"error": {"code": "not_found", "message": "No such table.", "fields": {...}}}

``fields`` only for input that fails validation (code ``malformed``). DRF hands every
exception of an API view to :func:`exception_handler`; :class:`ApiErrorMiddleware` turns
what never reaches a view (an unknown path, a non-integer id, a body over the size limit,
a server error) into the same shape, so no HTML page is ever answered under /api/.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils.deprecation import MiddlewareMixin
from django.utils.translation import gettext as _
from drf_spectacular.utils import inline_serializer
from rest_framework import exceptions, serializers
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from core.errors import ServiceError

API_PREFIX = "/api/"

# DRF's own codes renamed to the codes the websocket uses for the same thing (protocol §4).
CODES = {
    "invalid": "malformed",
    "parse_error": "malformed",
    "throttled": "rate_limited",
    "permission_denied": "forbidden",
    "not_found": "not_found",
    "unsupported_media_type": "malformed",
}

# For responses made outside DRF (the middleware): the code for each status.
STATUS_CODES = {
    400: "malformed",
    401: "not_authenticated",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "too_large",
    429: "rate_limited",
}


def error_body(code: str, message: str, fields: Mapping[str, Any] | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"code": code, "message": message}
    if fields is not None:
        body["fields"] = fields
    return {"error": body}


def _plain(detail: Any) -> Any:
    """DRF's ErrorDetail tree as plain JSON values (strings, lists, objects)."""
    if isinstance(detail, Mapping):
        return {str(key): _plain(value) for key, value in detail.items()}
    if isinstance(detail, Sequence) and not isinstance(detail, str):
        return [_plain(item) for item in detail]
    return str(detail)


def _fields(detail: Any) -> dict[str, Any]:
    if isinstance(detail, Mapping):
        return {
            str(key): _plain(value) if not isinstance(value, str) else [str(value)]
            for key, value in detail.items()
        }
    return {"non_field_errors": _plain(detail if isinstance(detail, list) else [detail])}


def _message(detail: Any) -> str:
    """The first message of a detail tree: never a Python repr."""
    if isinstance(detail, Mapping):
        return _message(next(iter(detail.values()), ""))
    if isinstance(detail, Sequence) and not isinstance(detail, str):
        return _message(detail[0]) if detail else ""
    return str(detail)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's EXCEPTION_HANDLER: every exception of an API view in the one shape."""
    if isinstance(exc, ServiceError):
        # The domain errors (games.errors.TableError, tournaments.errors.TournamentError).
        domain = Response(error_body(exc.code, exc.message), status=exc.status)
        if extra := getattr(exc, "headers", None):
            for name, value in extra.items():
                domain[name] = value
        return domain
    if isinstance(exc, RequestDataTooBig):
        return Response(error_body("too_large", _("The request body is too large.")), status=413)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return response  # a server error: the middleware answers it in the shape
    if isinstance(exc, exceptions.ValidationError):
        response.data = error_body("malformed", _("The input is not valid."), _fields(exc.detail))
    else:
        default = exc.default_code if isinstance(exc.default_code, str) else "error"
        response.data = error_body(CODES.get(default, default), _message(exc.detail))
    return response


class ApiErrorMiddleware(MiddlewareMixin):
    """Under /api/, an error answered outside DRF (Django's 404 for an unknown path or a
    non-integer id, 400 for a body over DATA_UPLOAD_MAX_MEMORY_SIZE, 500) is JSON in the
    one shape too, never an HTML page."""

    def process_request(self, request: HttpRequest) -> HttpResponse | None:
        """A body over Django's DATA_UPLOAD_MAX_MEMORY_SIZE is refused before anything
        reads it (DRF's parsers read the stream, which Django does not limit)."""
        if not request.path.startswith(API_PREFIX):
            return None
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if limit is not None and length > limit:
            return JsonResponse(
                error_body("too_large", _("The request body is too large.")), status=413
            )
        return None

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if request.path.startswith(API_PREFIX) and isinstance(exception, RequestDataTooBig):
            return JsonResponse(
                error_body("too_large", _("The request body is too large.")), status=413
            )
        return None

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        if (
            response.status_code < 400
            or not request.path.startswith(API_PREFIX)
            or response.get("Content-Type", "").startswith("application/json")
        ):
            return response
        status = response.status_code
        code = STATUS_CODES.get(status, "server_error" if status >= 500 else "error")
        messages = {
            "not_found": _("Not found."),
            "server_error": _("A server error occurred."),
            "too_large": _("The request body is too large."),
            "method_not_allowed": _("Method not allowed."),
        }
        body = error_body(code, messages.get(code, _("The request cannot be carried out.")))
        replaced = HttpResponse(json.dumps(body), status=status, content_type="application/json")
        for name in ("Allow", "Retry-After", "WWW-Authenticate"):
            if name in response:
                replaced[name] = response[name]
        return replaced


# The one error shape in the API's schema (drf-spectacular): every app's error answers.
class ErrorSerializer(serializers.Serializer[Any]):
    error = inline_serializer(
        "ErrorBody",
        fields={
            "code": serializers.CharField(),
            "message": serializers.CharField(),
            "fields": serializers.DictField(required=False),
        },
    )
