"""Structured logging: one JSON object per line, easy to ship and to grep."""

import json
import logging
import re
from datetime import UTC, datetime
from typing import Any

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


def redact(text: str) -> str:
    return _SECRETS.sub(lambda m: (m.group(1) or m.group(2)) + "[redacted]", text)


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
            if _SECRETS.search(text):
                setattr(record, key, redact(text))
        return True
