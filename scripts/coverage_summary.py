"""Print the coverage of the last test run (statements and branches) per app and in all,
and fail when the total is under the floor (``fail_under`` in pyproject.toml's
``[tool.coverage.report]``). ``make check`` runs it after the suite; the floor only goes
up (CONTRIBUTING.md)."""

from __future__ import annotations

import io
import sys

import coverage

APPS = [
    "config",
    "core",
    "accounts",
    "games",
    "tournaments",
    "ratings",
    "analysis",
    "social",
    "clubs",
    "fairplay",
]


def main() -> int:
    cov = coverage.Coverage()
    cov.load()
    print("coverage (statements and branches):")
    for app in APPS:
        percent = cov.report(include=[f"{app}/*"], file=io.StringIO())
        print(f"  {app:<12} {percent:6.2f}%")
    total = cov.report(file=io.StringIO())
    floor = float(cov.config.fail_under)
    print(f"  {'all':<12} {total:6.2f}%   the floor: {floor:.2f}%")
    if total < floor:
        print(f"coverage {total:.2f}% is under the floor {floor:.2f}%", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
