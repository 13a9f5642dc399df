"""A duplicate event with the round-robin movement seats its rounds by the plan made
when round 1 is seated (docs/duplicate.md, "Movement"), and re-plans the rounds left
when a player withdraws or walks in."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from tests.factories import UserFactory
from tests.tournaments.helpers import TournamentFactory, entered, play_round, settle
from tournaments import pairing, services
from tournaments.models import Round, Tournament
from tournaments.selectors.rounds import rounds_played

pytestmark = pytest.mark.django_db


def round_robin(**fields):
    """Duplicate, round-robin movement, one board a round, tables of 3."""
    return TournamentFactory(
        **{
            "format": Tournament.Format.DUPLICATE,
            "movement": Tournament.Movement.ROUND_ROBIN,
            "boards": 1,
            "preset": "classic",
            "match_target": None,
            **fields,
        }
    )


def seated(t: Tournament) -> list[list[pairing.TableSeats]]:
    """Every round seated so far, its tables by position."""
    last = Round.objects.filter(tournament=t).count()
    return rounds_played(t, before=last + 1)


def play_all(t: Tournament, rounds: int) -> None:
    settle(t, 0)
    for minute in range(1, rounds + 1):
        play_round(t)
        settle(t, minute)


def test_nine_entrants_play_four_rounds_by_the_affine_plane_and_never_meet_twice():
    t = round_robin(rounds=4)
    users = entered(t, 9)
    play_all(t, 4)
    assert t.status == Tournament.Status.FINISHED
    plan = pairing.movement_plan([u.pk for u in users], 4, seats=3, seed=t.seed)
    assert seated(t) == plan
    met = Counter(
        frozenset(pair)
        for rnd in plan
        for table in rnd
        for pair in itertools.combinations(table, 2)
    )
    assert len(met) == 36 and set(met.values()) == {1}
    positions = Counter((p, i) for rnd in plan for table in rnd for i, p in enumerate(table))
    assert all(positions[(u.pk, i)] in (1, 2) for u in users for i in range(3))


def test_a_withdrawal_after_round_one_replans_the_rounds_left_without_him():
    t = round_robin(rounds=3)
    users = entered(t, 10)
    settle(t, 0)
    play_round(t)
    services.registration_withdraw(tournament=t, user=users[0])
    settle(t, 1)  # round 1 over, round 2 seated from the nine left
    played = seated(t)
    assert len(played) == 2
    left = [u.pk for u in users[1:]]
    assert played[1] == pairing.movement_round(left, played[:1], rounds=3, seats=3, seed=t.seed)
    pairing.check_round(played[1], left, 3)


def test_a_walk_in_is_seated_from_the_next_round_by_the_replanned_movement():
    t = round_robin(rounds=3)
    users = entered(t, 8)
    settle(t, 0)
    play_round(t)
    late = UserFactory()
    services.registration_add_walk_in(tournament=t, user=late)
    settle(t, 1)
    played = seated(t)
    field = [u.pk for u in users] + [late.pk]
    pairing.check_round(played[1], field, 3)
    assert played[1] == pairing.movement_round(field, played[:1], rounds=3, seats=3, seed=t.seed)


def _page_plan(client, t, user=None):
    """The rounds to come as the event's page lists them: round → its tables' names."""
    from django.urls import reverse

    if user is not None:
        client.force_login(user)
    response = client.get(reverse("tournaments:detail", args=[t.pk]))
    return response.context["ahead"], response.content.decode()


def test_the_event_page_shows_the_rounds_to_come_as_they_are_then_seated(client):
    t = round_robin(rounds=4)
    users = entered(t, 10)  # ten at tables of 3: a bot table, and the search plans them
    settle(t, 0)  # round 1 seated
    ahead, html = _page_plan(client, t, users[0])
    assert [r.number for r in ahead] == [2, 3, 4]
    assert "The rounds to come" in html and "(your table)" in html

    name = {u.pk: u.get_display_name() for u in users}
    for r in ahead:
        play_round(t)
        settle(t, r.number - 1)  # the round over, the next one seated
        actual = [sorted(name.get(p, "bot") for p in table) for table in seated(t)[-1]]
        shown = [sorted(n if n in name.values() else "bot" for n in x.names) for x in r.tables]
        assert shown == actual, r.number


def test_only_a_round_robin_duplicate_event_shows_a_plan(client):
    swiss = TournamentFactory(
        format=Tournament.Format.DUPLICATE, boards=1, preset="classic", match_target=None, rounds=3
    )
    entered(swiss, 9)
    settle(swiss, 0)
    ahead, html = _page_plan(client, swiss)
    assert ahead == [] and "The rounds to come" not in html


def test_the_api_gives_the_rounds_to_come_with_each_seat_s_player():
    from django.urls import reverse
    from rest_framework.test import APIClient

    t = round_robin(rounds=3)
    users = entered(t, 9)
    settle(t, 0)
    ahead = APIClient().get(reverse("api-tournament-rounds-ahead", args=[t.pk])).json()

    assert [r["number"] for r in ahead] == [2, 3]
    planned = [[tuple(s["user_id"] for s in x["seats"]) for x in r["tables"]] for r in ahead]
    ids = sorted(u.pk for u in users)
    assert planned == pairing.movement_plan(ids, 3, seats=3, seed=t.seed)[1:]
