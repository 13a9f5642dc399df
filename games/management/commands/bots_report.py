"""``manage.py bots_report FILE…``: the Bots page's figures from ``bench/arena.py --json``.

``A.json+B.json`` (files joined by ``+``) is one measurement in several runs: the same
bots on other seeds, pooled layout by layout (:func:`games.bots_report.pool_runs`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.bots_report import REPORT_PATH, build_report, pool_runs


class Command(BaseCommand):
    help = "Regenerate the Bots page's figures (games/bots_report.json) from bench/arena.py --json files."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "files",
            nargs="+",
            help="arena JSON files, in order (a later pairing wins); A.json+B.json pools two runs",
        )
        parser.add_argument("--output", default=str(REPORT_PATH))

    def handle(self, *args: Any, **options: Any) -> None:
        runs = []
        for arg in options["files"]:
            parts = [_read(name) for name in arg.split("+")]
            try:
                runs.append(parts[0] if len(parts) == 1 else pool_runs(parts))
            except ValueError as exc:
                raise CommandError(f"{arg}: cannot pool these runs ({exc})") from None
        report = build_report(runs)
        Path(options["output"]).write_text(json.dumps(report, indent=2, sort_keys=True) + "\n")
        sizes = ", ".join(
            f"{p} players: {len(s['deals'])} pairings" for p, s in report["sizes"].items()
        )
        self.stdout.write(f"wrote {options['output']} ({sizes})")


def _read(name: str) -> dict[str, Any]:
    try:
        run = json.loads(Path(name).read_text())
    except (OSError, ValueError) as exc:
        raise CommandError(f"{name}: not an arena JSON file ({exc})") from None
    if not isinstance(run, dict) or "players" not in run or "deals" not in run:
        raise CommandError(f"{name}: not an arena JSON file (no 'players' or 'deals')")
    return run
