"""Building tournaments and playing their tables in tests, through the services."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import factory
from django.utils import timezone
from factory.django import DjangoModelFactory

from games.models import Table
from tests.factories import UserFactory
from tests.games.helpers import committed, play_to_end
from tournaments import services
from tournaments.models import Assignment, Registration, Tournament


def at(minutes: float) -> datetime:
    """A moment relative to the tournaments' start (minutes)."""
    return START + timedelta(minutes=minutes)


START = timezone.now().replace(microsecond=0) + timedelta(days=1)


class TournamentFactory(DjangoModelFactory[Tournament]):
    """An unrated Swiss of 2 rounds at tables of 3, matches to 100 without a barrel
    (a match lasts a deal or two), starting tomorrow; registration open from now."""

    class Meta:
        model = Tournament

    name = factory.Sequence(lambda n: f"Cup {n}")
    format = Tournament.Format.SWISS
    players_per_table = 3
    preset = "simple"
    match_target = 100
    rated = False
    rounds = 2
    move_seconds = 30
    break_seconds = 0
    registration_opens_at = factory.LazyFunction(lambda: START - timedelta(days=2))
    starts_at = START
    seed = 7
    status = Tournament.Status.SCHEDULED


def entered(t: Tournament, players: int, *, checked_in: bool = True) -> list[Any]:
    """``players`` users registered (and checked in) through the services."""
    if t.status == Tournament.Status.SCHEDULED:
        services.tournament_open_registration(tournament=t, now=t.registration_opens_at)
    users = [UserFactory() for _ in range(players)]
    for user in users:
        services.registration_create(tournament=t, user=user, now=at(-60))
    if checked_in and t.check_in_minutes:
        services.tournament_open_check_in(tournament=t)
        for user in users:
            services.registration_check_in(tournament=t, user=user)
    return users


def step(t: Tournament, minutes: float = 0.0) -> services.Step:
    with committed():
        did = services.tournament_step(tournament_id=t.pk, now=at(minutes))
    t.refresh_from_db()
    return did


def settle(t: Tournament, minutes: float = 0.0, limit: int = 20) -> list[services.Step]:
    """Step until nothing more is due at that moment; the steps' reports."""
    done = []
    for _ in range(limit):
        did = step(t, minutes)
        if not did or did == services.Step.BUSY:
            return done
        done.append(did)
    raise AssertionError(f"still stepping: {done}")


def running(players: int = 7, **fields: Any) -> tuple[Tournament, list[Any]]:
    """A tournament started at ``START`` with round 1 seated and its tables open."""
    t = TournamentFactory(**fields)
    users = entered(t, players)
    step(t, 0)  # start: round 1 seated
    step(t, 0)  # its tables open
    return t, users


def play_round(t: Tournament) -> None:
    """Play every open table of the tournament to its end (people move as basic bots:
    they reach the target in a deal or two, where random play can wander for long)."""
    for a in Assignment.objects.filter(round__tournament=t, status=Assignment.Status.PLAYING):
        assert a.table is not None
        play_to_end(Table.objects.get(pk=a.table_id))


def play_round_away(t: Tournament, absent: Any) -> None:
    """As :func:`play_round`, but ``absent`` never acts: each of his turns waits for his
    clock to run out (the clock plays for him, then a bot while he is away)."""
    from games import scheduler
    from games import services as game_services
    from tests.games.helpers import current, human_turn

    for a in Assignment.objects.filter(round__tournament=t, status=Assignment.Status.PLAYING):
        table = Table.objects.get(pk=a.table_id)
        seat_of = {s.user_id: s.number for s in table.seats.all()}
        for _ in range(20_000):
            with committed():
                if scheduler.run_pending(limit=1):
                    continue
            state = current(table)
            if state.match.to_act is not None and state.match.to_act == seat_of.get(absent.pk):
                Table.objects.filter(pk=table.pk).update(
                    deadline=timezone.now() - timedelta(seconds=1)
                )
                with committed():
                    assert game_services.clock_expire(table_id=table.pk, version=table.version)
                continue
            if not human_turn(table):
                table.refresh_from_db()
                assert table.status != Table.Status.PLAYING, "nobody can move"
                break


def statuses(t: Tournament) -> dict[int, str]:
    return dict(Registration.objects.filter(tournament=t).values_list("user_id", "status"))
