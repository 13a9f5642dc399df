"""``python -m games.engine replay FILE`` (or ``-`` for standard input), RULES.md §8.

Prints one JSON object on stdout: the replay, exit 0; or the error object, exit 2.
"""

from __future__ import annotations

import json
import sys

from .record import RecordError, replay


def _error(reason: str) -> dict[str, object]:
    return RecordError(reason).to_dict()


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2 or args[0] != "replay":
        sys.stderr.write("usage: python -m games.engine replay FILE|-\n")
        return 2
    try:
        if args[1] == "-":
            text = sys.stdin.buffer.read()
        else:
            with open(args[1], "rb") as f:
                text = f.read()
    except OSError as exc:
        return _emit(_error(f"cannot read {args[1]}: {exc.strerror}"))
    try:
        record = json.loads(text)
    except (ValueError, RecursionError):
        return _emit(_error("not valid JSON"))
    return _emit(replay(record))


def _emit(result: dict[str, object]) -> int:
    sys.stdout.write(json.dumps(result) + "\n")
    return 2 if "error" in result else 0


if __name__ == "__main__":
    sys.exit(main())
