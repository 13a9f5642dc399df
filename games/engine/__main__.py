"""The engine's command line, for a ``thousand/1`` record in FILE (or ``-``, standard input).

``python -m games.engine replay FILE`` (docs/spec.md §8) prints one JSON object: the replay,
exit 0; or the error object, exit 2.

``python -m games.engine verify FILE`` checks every deal's fair-dealing seeds
(docs/fair-dealing.md) and prints ``{"deals": [{"deal": i, "ok": …, "status": …,
"dealer": …, "reason": …}, …], "ok": …}``: exit 0 when every revealed deal verifies, 1 when
one fails, 2 with ``{"ok": false, "error": {…}}`` for a record that cannot be read.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from .fair import Verdict, verify_record
from .record import RecordError
from .replay import replay

USAGE = "usage: python -m games.engine replay|verify FILE|-\n"


def _error(reason: str) -> dict[str, object]:
    return RecordError(reason).to_dict()


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2 or args[0] not in ("replay", "verify"):
        sys.stderr.write(USAGE)
        return 2
    command, source = args
    try:
        if source == "-":
            text = sys.stdin.buffer.read()
        else:
            with open(source, "rb") as f:
                text = f.read()
    except OSError as exc:
        return _emit_error(command, f"cannot read {source}: {exc.strerror}")
    try:
        record = json.loads(text)
    except (ValueError, RecursionError):
        return _emit_error(command, "not valid JSON")
    if command == "verify":
        return _verify(record)
    return _emit(replay(record))


def _verify(record: object) -> int:
    try:
        checks = verify_record(record)
    except RecordError as exc:
        return _emit({"ok": False, **exc.to_dict()})
    failed = any(c.verdict is Verdict.FAILED for c in checks)
    _write({"deals": [c.to_dict() for c in checks], "ok": not failed})
    return 1 if failed else 0


def _emit_error(command: str, reason: str) -> int:
    error = _error(reason)
    return _emit({"ok": False, **error} if command == "verify" else error)


def _emit(result: dict[str, object]) -> int:
    _write(result)
    return 2 if "error" in result else 0


def _write(result: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    sys.exit(main())
