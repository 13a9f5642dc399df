"""Request parsers of the API (kept apart from core.api_errors: DRF's APIView reads
DEFAULT_PARSER_CLASSES when it is defined, so this module must not import DRF's views)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import exceptions, parsers


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, with too deeply nested input a parse error (400) rather than a
    RecursionError (500)."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise exceptions.ParseError(_("JSON parse error - nested too deeply.")) from None
