"""The admin, scoped to clubs: every tournaments admin page and action by a superuser, the
club's organiser (the events right alone), another club's organiser, a member of the club
with every right but events, a plain member, a stranger and an anonymous visitor. Allowed where it should be; refused elsewhere, and then
nothing in the database changed (read back)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from clubs import services
from clubs.models import ClubEvent
from tests.clubs.admin_matrix import (
    CALLERS,
    ORGANISERS,
    Case,
    action,
    changelist,
    check,
    client_for,
)
from tests.clubs.helpers import club, event, founder_of, member
from tests.factories import UserFactory
from tests.tournaments.helpers import START, running
from tournaments.models import (
    Announcement,
    Assignment,
    AssignmentSeat,
    Registration,
    Round,
    Standing,
    Tournament,
)

pytestmark = pytest.mark.django_db


@dataclass
class World:
    running: Tournament  # club A's, round 1 playing
    scheduled: Tournament  # club A's, registration open
    draft: Tournament  # club A's, a draft
    walk_in: Any  # a member of club A, not entered
    clients: dict[str, Client]


@pytest.fixture
def world() -> World:
    a, b = club(), club()
    boss = UserFactory(is_superuser=True, is_staff=True)
    t, _users = running(3, rounds=1, name="Alpha running")
    services.club_event_attach(user=boss, club=a, tournament=t)
    scheduled = event(a, name="Alpha scheduled").tournament
    draft = services.club_event_create(
        user=founder_of(a), club=a, name="Alpha draft", rated=False, preset="simple",
        match_target=100, rounds=2, registration_opens_at=START, starts_at=START,
    ).tournament  # fmt: skip
    event(b, name="Beta scheduled")
    users = {
        "superuser": boss,
        "organiser": member(a, rights={"events"}),
        "other_organiser": member(b, rights={"events"}),
        "other_rights": member(a, rights={"settings", "moderation", "members", "messages"}),
        "member": member(a),
        "stranger": UserFactory(),
        "anonymous": None,
    }
    return World(t, scheduled, draft, member(a), {k: client_for(u) for k, u in users.items()})


def snapshot() -> list[Any]:
    models = (Tournament, Registration, Announcement, Round, Assignment, AssignmentSeat, Standing)
    return [list(m.objects.order_by("pk").values()) for m in (*models, ClubEvent)]


def _change(model: str, obj: Callable[[World], Any]) -> Callable[[World], str]:
    return lambda w: reverse(f"admin:tournaments_{model}_change", args=[obj(w).pk])


def _list(model: str) -> Callable[[World], str]:
    return changelist(f"tournaments_{model}")


def _reg(w: World) -> Registration:
    return Registration.objects.filter(tournament=w.running).first()  # type: ignore[return-value]


def _round(w: World) -> Round:
    return Round.objects.filter(tournament=w.running).first()  # type: ignore[return-value]


def _assignment(w: World) -> Assignment:
    return Assignment.objects.filter(round__tournament=w.running).first()  # type: ignore[return-value]


def _standing(w: World) -> Standing:
    return Standing.objects.filter(tournament=w.running).first()  # type: ignore[return-value]


def _action(model: str, name: str, obj: Callable[[World], Any], **fields: Any) -> Case:
    return action(f"tournaments_{model}", name, obj, **fields)


CASES = {
    "tournament list": Case("get", _list("tournament"), marker="Alpha running"),
    "tournament page": Case("get", _change("tournament", lambda w: w.running)),
    "tournament add page": Case(
        "get",
        lambda w: reverse("admin:tournaments_tournament_add"),
        allowed=frozenset({"superuser", "organiser", "other_organiser"}),  # for his own club
    ),
    "tournament pause": _action("tournament", "pause", lambda w: w.running),
    "tournament open registration": _action(
        "tournament", "close_registration", lambda w: w.scheduled
    ),
    "tournament export": _action(
        "tournament", "export_standings", lambda w: w.running, changes=False
    ),
    "tournament delete draft": Case(
        "post",
        lambda w: reverse("admin:tournaments_tournament_delete", args=[w.draft.pk]),
        lambda w: {"post": "yes"},
    ),
    "registration list": Case("get", _list("registration"), marker="Alpha running"),
    "registration page": Case("get", _change("registration", _reg)),
    "registration seed": Case(
        "post",
        _change("registration", _reg),
        lambda w: {"seed": 5},
    ),
    "walk-in": Case(
        "post",
        lambda w: reverse("admin:tournaments_registration_add"),
        lambda w: {"tournament": w.scheduled.pk, "user": w.walk_in.pk, "check_in": "on"},
    ),
    "announcement": Case(
        "post",
        lambda w: reverse("admin:tournaments_announcement_add"),
        lambda w: {"tournament": w.running.pk, "text": "Round 2 at eight"},
    ),
    "round list": Case("get", _list("round"), marker="Alpha running"),
    "round page": Case("get", _change("round", _round)),
    "assignment list": Case("get", _list("assignment"), marker="Alpha running"),
    "assignment page": Case("get", _change("assignment", _assignment)),
    "standing list": Case("get", _list("standing"), marker="Alpha running"),
    "standing page": Case("get", _change("standing", _standing)),
}


@pytest.mark.parametrize("caller", CALLERS)
@pytest.mark.parametrize("case", sorted(CASES))
def test_an_admin_url_serves_only_the_superuser_and_the_clubs_organiser(
    world: World, case: str, caller: str
) -> None:
    check(
        CASES[case], world, caller, world.clients[caller], snapshot,
        default=ORGANISERS, leak="Alpha running",
    )  # fmt: skip


def test_an_export_for_another_clubs_organiser_holds_none_of_the_clubs_rows(world: World) -> None:
    answer = world.clients["other_organiser"].post(
        reverse("admin:tournaments_tournament_changelist"),
        {"action": "export_standings", "_selected_action": [world.running.pk]},
    )
    rows = answer.content.decode().splitlines()
    assert len(rows) <= 1 and "Alpha running" not in answer.content.decode()


def test_a_removed_organiser_is_refused_on_his_next_request(world: World) -> None:
    client = world.clients["organiser"]
    url = reverse("admin:tournaments_tournament_change", args=[world.running.pk])
    assert client.get(url).status_code == 200
    a = ClubEvent.objects.get(tournament=world.running).club
    organiser = a.memberships.get(right_events=True, right_roles=False).user
    services.member_remove(user=founder_of(a), club=a, member=organiser)
    assert client.get(url).status_code == 302
    assert client.get(reverse("admin:index")).status_code == 302


def test_an_organiser_adds_an_event_only_for_his_club(world: World) -> None:
    client = world.clients["organiser"]
    page = client.get(reverse("admin:tournaments_tournament_add"))
    form = page.context["adminform"].form
    choices = [str(c[1]) for c in form.fields["club"].choices if c[0]]
    a = ClubEvent.objects.get(tournament=world.running).club
    assert choices == [a.name]
