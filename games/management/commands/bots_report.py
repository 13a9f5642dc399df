"""``manage.py bots_report FILE…``: the Bots page's figures from ``bench/arena.py --json``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.bots_report import REPORT_PATH, build_report


class Command(BaseCommand):
    help = "Regenerate the Bots page's figures (games/bots_report.json) from bench/arena.py --json files."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "files", nargs="+", help="arena JSON files, in order (a later pairing wins)"
        )
        parser.add_argument("--output", default=str(REPORT_PATH))

    def handle(self, *args: Any, **options: Any) -> None:
        runs = []
        for name in options["files"]:
            try:
                run = json.loads(Path(name).read_text())
            except (OSError, ValueError) as exc:
                raise CommandError(f"{name}: not an arena JSON file ({exc})") from None
            if not isinstance(run, dict) or "players" not in run or "deals" not in run:
                raise CommandError(f"{name}: not an arena JSON file (no 'players' or 'deals')")
            runs.append(run)
        report = build_report(runs)
        Path(options["output"]).write_text(json.dumps(report, indent=2, sort_keys=True) + "\n")
        sizes = ", ".join(
            f"{p} players: {len(s['deals'])} pairings" for p, s in report["sizes"].items()
        )
        self.stdout.write(f"wrote {options['output']} ({sizes})")
