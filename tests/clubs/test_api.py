"""The clubs API: each write endpoint by every kind of caller (anonymous, a stranger, a
plain member, a member holding some other right, the member holding the right, a
superuser), allowed only where it should be, and nothing changed in the database on a
refusal (read back)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.types import User
from clubs import services
from clubs.models import Club, ClubMessage, Invitation, JoinRequest, Membership
from tests.clubs.helpers import club, founder_of, member
from tests.factories import UserFactory
from tournaments.models import Notification

pytestmark = pytest.mark.django_db

CALLERS = ("anonymous", "stranger", "member", "other_right", "holder", "superuser")


def _snapshot() -> list[Any]:
    return [
        list(Club.objects.order_by("pk").values()),
        list(Membership.objects.order_by("pk").values()),
        list(JoinRequest.objects.order_by("pk").values()),
        list(Invitation.objects.order_by("pk").values()),
        list(ClubMessage.objects.order_by("pk").values()),
        list(Notification.objects.order_by("pk").values()),
    ]


def _caller(kind: str, c: Club, right: str) -> User | None:
    other = "events" if right != "events" else "messages"
    return {
        "anonymous": lambda: None,
        "stranger": lambda: UserFactory(),
        "member": lambda: member(c),
        "other_right": lambda: member(c, rights={other}),
        "holder": lambda: member(c, rights={right}),
        "superuser": lambda: UserFactory(is_superuser=True, is_staff=True),
    }[kind]()


def _target(c: Club) -> User:
    return member(c)


# Each endpoint: the right it needs, and (method, path, body) from the club and a member.
Call = Callable[[Club, User], tuple[str, str, dict[str, Any]]]
ENDPOINTS: dict[str, tuple[str, Call]] = {
    "update": (
        "settings",
        lambda c, m: ("patch", f"/api/v1/clubs/{c.slug}/", {"description": "x"}),
    ),
    "rights": (
        "roles",
        lambda c, m: (
            "patch",
            f"/api/v1/clubs/{c.slug}/members/{m.username}/",
            {"rights": ["events"]},
        ),
    ),
    "remove": (
        "members",
        lambda c, m: ("delete", f"/api/v1/clubs/{c.slug}/members/{m.username}/", {}),
    ),
    "invite": (
        "members",
        lambda c, m: ("post", f"/api/v1/clubs/{c.slug}/invitations/", {"days": 3}),
    ),
    "invitations": ("members", lambda c, m: ("get", f"/api/v1/clubs/{c.slug}/invitations/", {})),
    "requests": ("members", lambda c, m: ("get", f"/api/v1/clubs/{c.slug}/requests/", {})),
    "message": (
        "messages",
        lambda c, m: (
            "post",
            f"/api/v1/clubs/{c.slug}/messages/",
            {"subject": "Thursday", "text": "At seven."},
        ),
    ),
}


@pytest.mark.parametrize("caller", CALLERS)
@pytest.mark.parametrize("endpoint", sorted(ENDPOINTS))
def test_a_club_endpoint_answers_only_the_holder_of_its_right(endpoint: str, caller: str) -> None:
    c = club()
    right, call = ENDPOINTS[endpoint]
    target = _target(c)
    user = _caller(caller, c, right)
    api = APIClient()
    if user is not None:
        api.force_authenticate(user)
    method, path, body = call(c, target)
    before = _snapshot()
    answer = getattr(api, method)(path, body, format="json")
    if caller in ("holder", "superuser"):
        assert answer.status_code < 300, answer.content
    else:
        assert answer.status_code in (401, 403), answer.content
        assert set(answer.json()) == {"error"}
        assert _snapshot() == before


def test_answering_a_request_needs_the_members_right() -> None:
    c = club(access=Club.Access.ASK)
    asking = UserFactory()
    pending = services.club_join(user=asking, club=c)
    api = APIClient()
    api.force_authenticate(member(c, rights={"events"}))
    path = f"/api/v1/clubs/{c.slug}/requests/{pending.pk}/accept/"
    assert api.post(path).status_code == 403
    assert not Membership.objects.filter(club=c, user=asking).exists()
    api.force_authenticate(member(c, rights={"members"}))
    assert api.post(path).status_code == 204
    assert Membership.objects.filter(club=c, user=asking).exists()


def test_revoking_an_invitation_needs_the_members_right() -> None:
    c = club()
    link = services.invitation_create(user=founder_of(c), club=c)
    api = APIClient()
    api.force_authenticate(member(c))
    path = f"/api/v1/clubs/{c.slug}/invitations/{link.pk}/"
    assert api.delete(path).status_code == 403
    link.refresh_from_db()
    assert link.revoked_at is None
    api.force_authenticate(founder_of(c))
    assert api.delete(path).status_code == 204


def test_founding_joining_and_leaving_through_the_api() -> None:
    someone, joiner = UserFactory(), UserFactory()
    api = APIClient()
    api.force_authenticate(someone)
    answer = api.post("/api/v1/clubs/", {"name": "Odesa", "slug": "odesa"}, format="json")
    assert answer.status_code == 201 and answer.json()["slug"] == "odesa"
    api.force_authenticate(joiner)
    assert api.post("/api/v1/clubs/odesa/join/").json() == {"status": "member"}
    members = APIClient().get("/api/v1/clubs/odesa/members/").json()
    assert [m["username"] for m in members] == [someone.username, joiner.username]
    assert api.post("/api/v1/clubs/odesa/leave/").status_code == 204


def test_a_bad_slug_is_answered_in_the_error_shape() -> None:
    api = APIClient()
    api.force_authenticate(UserFactory())
    answer = api.post("/api/v1/clubs/", {"name": "X club", "slug": "a b"}, format="json")
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "invalid"


def test_an_invitation_link_joins_through_the_api() -> None:
    c = club(access=Club.Access.PRIVATE)
    link = services.invitation_create(user=founder_of(c), club=c)
    api = APIClient()
    api.force_authenticate(UserFactory())
    assert api.post(f"/api/v1/clubs/invitations/{link.token}/accept/").status_code == 200
    assert api.post("/api/v1/clubs/invitations/nonsense/accept/").status_code == 404


def test_anyone_reads_the_list_a_club_and_its_events() -> None:
    c = club()
    api = APIClient()
    assert api.get("/api/v1/clubs/").status_code == 200
    assert api.get(f"/api/v1/clubs/{c.slug}/").json()["name"] == c.name
    assert api.get(f"/api/v1/clubs/{c.slug}/events/").json() == []
    assert api.get("/api/v1/clubs/nope/").status_code == 404
