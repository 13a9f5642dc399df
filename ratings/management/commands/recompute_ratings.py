"""``manage.py recompute_ratings [--since ISO-DATE] [--players 3]``: replay every rated,
not annulled result in time order and report what changed."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.dateparse import parse_datetime

from ratings.models import Competitor
from ratings.services import ratings_recompute


class Command(BaseCommand):
    help = "Recompute every rating from the match results, in time order, and report what changed."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--since", help="only from this time on (ISO 8601), e.g. 2026-11-01T00:00:00Z"
        )
        parser.add_argument(
            "--players", type=int, action="append", choices=[2, 3, 4], help="one pool (repeatable)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        since = None
        if options["since"]:
            since = parse_datetime(options["since"])
            if since is None:
                raise CommandError(f"--since: not a date and time: {options['since']!r}")
        report = ratings_recompute(since=since, players=options["players"] or (2, 3, 4))
        self.stdout.write(report.summary())
        names = {
            c.pk: str(c)
            for c in Competitor.objects.select_related("user").filter(
                pk__in=[k[0] for k in report.moved]
            )
        }
        for (competitor_id, players), (old, new) in sorted(
            report.moved.items(), key=lambda kv: (kv[0][1], names.get(kv[0][0], ""))
        ):
            self.stdout.write(
                f"  {names.get(competitor_id, competitor_id)} ({players} players): {old:.1f} → {new:.1f} ({new - old:+.1f})"
            )
