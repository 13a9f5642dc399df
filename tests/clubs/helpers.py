"""Building clubs in tests, through the services."""

from __future__ import annotations

import itertools
from typing import Any

from accounts.types import User
from clubs import services
from clubs.models import Club, ClubEvent, Membership
from tests.factories import UserFactory
from tests.tournaments.helpers import START
from tournaments import services as tournament_services

_numbers = itertools.count(1)


def club(*, founder: User | None = None, **fields: Any) -> Club:
    """A public club founded by ``founder`` (a new user when none)."""
    n = next(_numbers)
    fields.setdefault("name", f"Club number {n}")
    fields.setdefault("slug", f"club-number-{n}")
    return services.club_create(user=founder or UserFactory(), **fields)


def founder_of(c: Club) -> User:
    assert c.created_by is not None
    return c.created_by


def member(c: Club, *, rights: set[str] = frozenset(), user: User | None = None) -> User:  # type: ignore[assignment]
    """A new member of ``c`` holding exactly ``rights``."""
    someone = user or UserFactory()
    membership = services._add_member(club=c, user=someone)
    if rights:
        services.member_set_rights(user=founder_of(c), club=c, member=someone, rights=set(rights))
    membership.refresh_from_db()
    return someone


def event(
    c: Club, *, members_only: bool = False, by: User | None = None, **fields: Any
) -> ClubEvent:
    """A scheduled Swiss of the club, registration open, starting tomorrow."""
    fields = {
        "name": f"Evening {next(_numbers)}",
        "format": "swiss",
        "players_per_table": 3,
        "preset": "simple",
        "match_target": 100,
        "rated": False,
        "rounds": 2,
        "registration_opens_at": START.replace(year=START.year - 1),
        "starts_at": START,
        **fields,
    }
    e = services.club_event_create(
        user=by or founder_of(c), club=c, members_only=members_only, **fields
    )
    tournament_services.tournament_schedule(tournament=e.tournament)
    tournament_services.tournament_open_registration(tournament=e.tournament, early=True)
    e.tournament.refresh_from_db()
    return e


def rights_of(c: Club, user: User) -> tuple[str, ...]:
    return Membership.objects.get(club=c, user=user).rights()
