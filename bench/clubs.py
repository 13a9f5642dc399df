"""The clubs app at size, on PostgreSQL: ``--clubs`` clubs (100) with ``--members`` members
(10,000) and ``--events`` events (5,000) bulk-loaded, then

- an organiser's scoped admin changelist of tournaments: median ms and queries;
- a club's page: median ms and queries;
- a season table of ``--season-events`` events (50) × ``--season-players`` players (2,000)
  after an amendment (a standing changed): the task the standings' signal enqueues (the
  event's results and the season's table stored), then the read of the stored table, each
  alone too, and the table counted afresh from every event's standings for comparison;
- the beat task creating the week's recurring evenings of every club (one series each), ms.

``--scale 0.1`` divides every size by ten for a quick look. It uses its own database
(``--db``, default ``thousand_clubs_bench``), emptied of clubs' rows and migrated first.
Figures print; nothing is asserted (docs/benchmarks.md).

    .venv/bin/python -m bench.clubs [--scale 0.1]
"""

from __future__ import annotations

import argparse
import os
import random
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from bench.ratings_speed import setup_django, timed

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/thousand_clubs_bench"


def load(clubs: int, members: int, events: int, season_events: int, season_players: int) -> Any:
    from django.utils import timezone

    from accounts.models import User
    from clubs import services
    from clubs.models import Club, ClubEvent, Membership, Season
    from tournaments.models import Standing, Tournament

    Standing.objects.filter(tournament__club_event__isnull=False).delete()
    ClubEvent.objects.all().delete()
    Tournament.objects.filter(name__startswith="bench ").delete()
    Club.objects.all().delete()
    User.objects.filter(username__startswith="clubbench").delete()

    users = User.objects.bulk_create(
        User(username=f"clubbench{i}", display_name=f"Bench {i}") for i in range(members)
    )
    founders = users[:clubs]
    made = []
    for i, founder in enumerate(founders):
        made.append(
            services.club_create(
                user=founder, name=f"Bench club {i}", slug=f"bench-club-{i}",
                time_zone="Europe/Kyiv",
            )
        )  # fmt: skip
    rest = users[clubs:]
    Membership.objects.bulk_create(
        Membership(club=made[i % clubs], user=u) for i, u in enumerate(rest)
    )
    now = timezone.now()
    statuses = [Tournament.Status.FINISHED, Tournament.Status.SCHEDULED]
    tournaments = Tournament.objects.bulk_create(
        Tournament(
            name=f"bench {i}", status=statuses[i % 2], rated=False, preset="simple",
            match_target=100, rounds=4, created_by=founders[i % clubs],
            registration_opens_at=now - timedelta(days=30), starts_at=now + timedelta(days=i % 60 - 30),
        )
        for i in range(events)
    )  # fmt: skip
    ClubEvent.objects.bulk_create(
        ClubEvent(club=made[i % clubs], tournament=t) for i, t in enumerate(tournaments)
    )
    # The season: the first club's first finished events, each with every season player.
    club0 = made[0]
    season_ts = Tournament.objects.bulk_create(
        Tournament(
            name=f"bench season {i}", status=Tournament.Status.FINISHED, rated=False,
            preset="simple", match_target=100, rounds=4, registration_opens_at=now,
            starts_at=datetime(2027, 1, 1, 18, tzinfo=UTC) + timedelta(days=i),
        )
        for i in range(season_events)
    )  # fmt: skip
    ClubEvent.objects.bulk_create(ClubEvent(club=club0, tournament=t) for t in season_ts)
    players = users[:season_players]
    rng = random.Random(7)
    Standing.objects.bulk_create(
        Standing(tournament=t, user=u, rank=p + 1, position=p + 1)
        for t in season_ts
        for p, u in enumerate(rng.sample(players, len(players)))
    )
    season = Season.objects.create(
        club=club0, name="bench", starts_on=date(2026, 12, 31), ends_on=date(2027, 12, 31),
        points=[25, 18, 15, 12, 10, 8, 6, 4, 2, 1], best=10,
    )  # fmt: skip
    organiser = User.objects.filter(username="clubbench0").get()
    return made, season, organiser


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default=DEFAULT_DB)
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only")  # the sessions of the page loads
    # The admin's second factor is the accounts app's (tests/settings.py turns it off too):
    # the organiser here measures the scoped pages, not the sign-in.
    os.environ.setdefault("ACCOUNTS_ADMIN_OTP", "false")
    setup_django(args.db)

    from django.db import connection
    from django.test import Client

    from clubs import selectors, series
    from clubs.models import Series
    from tournaments.models import Standing

    def n(x: int) -> int:
        return max(1, int(x * args.scale))

    sizes = (n(100), n(10_000), n(5_000), n(50), n(2_000))
    clubs, season, organiser = load(*sizes)
    print(f"clubs {sizes[0]}, members {sizes[1]}, events {sizes[2]}, "
          f"season {sizes[3]} events x {sizes[4]} players")  # fmt: skip
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(organiser)

    def measure(label: str, url: str) -> None:
        queries: list[str] = []

        def count(execute: Any, sql: str, *rest: Any) -> Any:
            queries.append(sql)
            return execute(sql, *rest)

        with connection.execute_wrapper(count):
            response = client.get(url)
        assert response.status_code == 200, (url, response.status_code, response.get("Location"))
        median, worst = timed(lambda: client.get(url), args.runs)
        print(f"{label}: median {median:.0f} ms, max {worst:.0f} ms, {len(queries)} queries")

    measure("organiser's admin changelist", "/admin/tournaments/tournament/")
    measure("club page", f"/clubs/{clubs[0].slug}/")

    standing = Standing.objects.filter(tournament__club_event__club=clubs[0]).first()
    assert standing is not None
    tournament_id = standing.tournament_id
    series.season_table_store(season=season)  # as the season's start stores it

    def amend() -> None:
        Standing.objects.filter(pk=standing.pk).update(disqualified=not standing.disqualified)
        standing.disqualified = not standing.disqualified

    def amend_and_store() -> None:
        # What the standings' signal enqueues: the event's results, then its seasons' tables.
        amend()
        assert series.event_seasons_refresh(tournament_id=tournament_id) == 1

    def amend_store_and_read() -> None:
        amend_and_store()
        selectors.season_rows(season=season)

    def computed_from_standings() -> None:
        events_ = selectors.season_events(season=season)
        selectors.season_lines(
            season=season, events_=events_, results=selectors.events_results(events_=events_)
        )

    for label, fn in (
        ("season table after an amendment (stored, then read)", amend_store_and_read),
        ("  of which the task: the event's results and the table stored", amend_and_store),
        ("  of which the read of the stored table", lambda: selectors.season_rows(season=season)),
        ("  (the table counted from every event's standings, as before)", computed_from_standings),
    ):
        median, worst = timed(fn, args.runs)
        print(f"{label}: median {median:.0f} ms, max {worst:.0f} ms")
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")

    for c in clubs:
        Series.objects.create(
            club=c, name="Thursday", weekday=3, start_time=time(19), time_zone="Europe/Kyiv",
            tournament_fields={"format": "swiss", "preset": "simple", "rated": False,
                               "match_target": 100, "rounds": 4},
            created_by=c.created_by,
        )  # fmt: skip
    started = datetime.now(UTC)
    created = series.series_materialize_all()
    took = (datetime.now(UTC) - started).total_seconds()
    print(f"beat: {created} recurring evenings of {len(clubs)} clubs created in {took:.2f} s")


if __name__ == "__main__":
    main()
