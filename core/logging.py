"""Structured logging: one JSON object per line, easy to ship and to grep."""

import json
import logging
import re
from datetime import UTC, datetime
from typing import Any
from urllib.parse import unquote_plus

# Attributes every LogRecord has; anything else was passed with ``extra=`` and is kept.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {"message", "asctime"}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, tz=UTC).isoformat(),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in vars(record).items():
            if key not in _STANDARD and not key.startswith("_"):
                entry[key] = value
        if record.exc_info:
            entry["exc_info"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str, ensure_ascii=False)


# ``token=<key>`` in a query string, and ``Token <key>`` as an Authorization header shows it.
_SECRETS = re.compile(
    r"((?:[?&;]|%3F|%26|\b)(?:token|key)(?:=|%3D))[^&\s\"'<>]+|(\bToken\s+)[0-9a-fA-F]{20,}",
    re.IGNORECASE,
)


# Any query parameter, its name perhaps percent-encoded (``%74oken=`` is ``token=`` to
# the server, which decodes the query before it reads it: core.ws_auth), its separators
# perhaps too (a URL inside a parameter).
_PARAMETER = re.compile(
    r"((?:[?&;]|%3F|%26|%3B)((?:[^=&;?\s\"'<>%]|%(?!3D|26|3B|3F)[0-9A-F]{2})+)(?:=|%3D))"
    r"(?:[^&;\s\"'<>%]|%(?!26|3B)[0-9A-F]{2}|%(?![0-9A-F]{2}))+",
    re.IGNORECASE,
)
_SECRET_NAMES = frozenset({"token", "key"})


def _decoded(name: str) -> str:
    """``name`` percent-decoded until nothing changes (a name encoded twice, or more)."""
    for _ in range(4):
        plain = unquote_plus(name)
        if plain == name:
            break
        name = plain
    return name.strip().lower()


def _redact_parameter(match: re.Match[str]) -> str:
    if _decoded(match.group(2)) in _SECRET_NAMES:
        return match.group(1) + "[redacted]"
    return match.group(0)


def redact(text: str) -> str:
    """``text`` without API tokens: a ``token=`` (or ``key=``) query parameter, its name
    compared after decoding as the server decodes it, and a ``Token <key>`` header."""
    text = _SECRETS.sub(lambda m: (m.group(1) or m.group(2)) + "[redacted]", text)
    if "%" in text:
        text = _PARAMETER.sub(_redact_parameter, text)
    return text


class RedactSecrets(logging.Filter):
    """Takes API tokens out of every record: the message (uvicorn's access log and its
    websocket lines print the whole URL) and anything passed with ``extra=`` (Django's
    ``request``, whose repr holds the query string)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = redact(message)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        for key, value in list(vars(record).items()):
            if key in _STANDARD or key.startswith("_") or value is None:
                continue
            text = value if isinstance(value, str) else repr(value)
            cleaned = redact(text)
            if cleaned != text:
                setattr(record, key, cleaned)
        return True


def logging_settings(*, level: str, handler_format: str) -> dict[str, Any]:
    """Django's LOGGING: one handler on stderr, in JSON lines (``handler_format="json"``)
    or plain lines ("console"), with secrets redacted from every line."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        # No API token (?token=… in a websocket URL, a Token header) in any log line.
        "filters": {"redact": {"()": "core.logging.RedactSecrets"}},
        "formatters": {
            "json": {"()": "core.logging.JsonFormatter"},
            "console": {"format": "%(asctime)s %(levelname)-7s %(name)s: %(message)s"},
        },
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "formatter": handler_format,
                "filters": ["redact"],
            },
        },
        "root": {"handlers": ["stderr"], "level": level},
        "loggers": {
            "django.db.backends": {"level": "INFO"},
            "celery": {"level": level},
            # uvicorn's own loggers (its access log, its websocket lines) write through the
            # same filtered handler: uvicorn's configuration is replaced when Django starts.
            "uvicorn": {"handlers": ["stderr"], "level": level, "propagate": False},
            "uvicorn.access": {"handlers": ["stderr"], "level": level, "propagate": False},
        },
    }
