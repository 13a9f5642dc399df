"""The admin matrix (tests/clubs/test_admin_scope.py), for the pages a club's moderation and
messages rights open: the club's sent messages, and the social app's chat queue, messages
and mutes of the club's events. Every URL and action by a superuser, the club's member
holding each right alone, another club's founder (every right, in his club), a plain
member, a stranger and an anonymous visitor: allowed where it should be, refused elsewhere,
and then nothing in the database changed (read back)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from clubs import services
from clubs.models import RIGHTS, ClubMessage, Membership
from social import errors as social_errors
from social import services as social
from social.models import ChatBan, ChatMessage, ChatReport
from tests.clubs.admin_matrix import Case, action, changelist, check, client_for
from tests.clubs.helpers import club, event, founder_of, member
from tests.factories import UserFactory
from tests.tournaments.helpers import entered

pytestmark = pytest.mark.django_db

CALLERS = ("superuser", *RIGHTS, "other_club", "member", "stranger", "anonymous")
MODERATORS = frozenset({"superuser", "moderation"})


@dataclass
class World:
    message: ClubMessage  # club A's
    report: ChatReport  # of a message said in club A's event
    ban: ChatBan  # in club A's event
    clients: dict[str, Client]


def _reported(c: Any, text: str) -> tuple[ChatReport, Any]:
    e = event(c)
    ann, bob = entered(e.tournament, 2, checked_in=False)
    said = social.chat_say(user=bob, tournament_id=e.tournament_id, text=text)
    return social.chat_report(user=ann, message_id=said.pk), bob


@pytest.fixture
def world() -> World:
    a, b = club(), club()
    report, rude = _reported(a, "Alpha rude")
    _reported(b, "Beta rude")
    ban = social.chat_ban(
        by=founder_of(a),
        user=rude,
        minutes=60,
        tournament_id=report.message.tournament_id,
        reason="Alpha ban",
    )
    message = services.club_message_send(
        club=a, sender=founder_of(a), subject="Alpha news", text="Thursday."
    )
    services.club_message_send(club=b, sender=founder_of(b), subject="Beta news", text="Friday.")
    users: dict[str, Any] = {
        "superuser": UserFactory(is_superuser=True, is_staff=True),
        **{right: member(a, rights={right}) for right in RIGHTS},
        "other_club": founder_of(b),
        "member": member(a),
        "stranger": UserFactory(),
        "anonymous": None,
    }
    return World(message, report, ban, {k: client_for(u) for k, u in users.items()})


def snapshot() -> list[Any]:
    models = (ClubMessage, ChatMessage, ChatReport, ChatBan, Membership)
    return [list(m.objects.order_by("pk").values()) for m in models]


_list = changelist
_action = action


MESSAGES = frozenset({"superuser", "messages"})

CASES = {
    "club message list": Case(
        "get", _list("clubs_clubmessage"), marker="Alpha news", allowed=MESSAGES
    ),
    "club message page": Case(
        "get",
        lambda w: reverse("admin:clubs_clubmessage_change", args=[w.message.pk]),
        marker="Thursday.",
        allowed=MESSAGES,
    ),
    "club message delete": Case(
        "post",
        lambda w: reverse("admin:clubs_clubmessage_delete", args=[w.message.pk]),
        lambda w: {"post": "yes"},
        allowed=frozenset({"superuser"}),
    ),
    "chat report list": Case("get", _list("social_chatreport"), marker="Alpha rude"),
    "chat report page": Case(
        "get",
        lambda w: reverse("admin:social_chatreport_change", args=[w.report.pk]),
        marker="Alpha rude",
    ),
    "chat report hide": _action("social_chatreport", "hide_messages", lambda w: w.report),
    "chat report mute in the event": _action(
        "social_chatreport", "mute_1440_event", lambda w: w.report
    ),
    "chat report mute site-wide": _action(
        "social_chatreport",
        "mute_1440_site",
        lambda w: w.report,
        allowed=frozenset({"superuser"}),
    ),
    "chat report dismiss": _action("social_chatreport", "dismiss", lambda w: w.report),
    "chat message list": Case("get", _list("social_chatmessage"), marker="Alpha rude"),
    "chat message page": Case(
        "get",
        lambda w: reverse("admin:social_chatmessage_change", args=[w.report.message_id]),
        marker="Alpha rude",
    ),
    "chat message hide": _action("social_chatmessage", "hide_messages", lambda w: w.report.message),
    "mute list": Case("get", _list("social_chatban"), marker="Alpha ban"),
    "mute page": Case(
        "get",
        lambda w: reverse("admin:social_chatban_change", args=[w.ban.pk]),
        marker="Alpha ban",
    ),
    "mute shortened": Case(
        "post",
        lambda w: reverse("admin:social_chatban_change", args=[w.ban.pk]),
        lambda w: {"until_0": "2000-01-01", "until_1": "10:00:00"},
    ),
}


@pytest.mark.parametrize("caller", CALLERS)
@pytest.mark.parametrize("case", sorted(CASES))
def test_a_club_rights_admin_url_serves_only_the_holder_of_its_right(
    world: World, case: str, caller: str
) -> None:
    check(
        CASES[case], world, caller, world.clients[caller], snapshot,
        default=MODERATORS, leak="Alpha",
    )  # fmt: skip


def test_a_club_moderator_mutes_in_the_clubs_event_only(world: World) -> None:
    client = world.clients["moderation"]
    client.post(
        reverse("admin:social_chatreport_changelist"),
        {"action": "mute_60_event", "_selected_action": [world.report.pk]},
    )
    newest = ChatBan.objects.latest("pk")
    assert newest.pk != world.ban.pk
    assert newest.tournament_id == world.report.message.tournament_id


def test_a_moderator_who_loses_the_right_is_refused_on_his_next_request(world: World) -> None:
    client = world.clients["moderation"]
    url = reverse("admin:social_chatreport_change", args=[world.report.pk])
    assert client.get(url).status_code == 200
    a = world.message.club
    moderator = a.memberships.get(right_moderation=True, right_roles=False).user
    services.member_set_rights(user=founder_of(a), club=a, member=moderator, rights=set())
    assert client.get(url).status_code == 302
    with pytest.raises(social_errors.NotFound):
        social.message_hide(by=moderator, message_id=world.report.message_id)


def test_a_club_moderator_moderates_the_events_chat_on_its_page(world: World) -> None:
    from social.selectors import may_moderate

    a = world.message.club
    moderator = a.memberships.get(right_moderation=True, right_roles=False).user
    events = a.memberships.get(right_events=True, right_roles=False).user
    tournament_id = world.report.message.tournament_id
    assert may_moderate(user=moderator, tournament_id=tournament_id)
    assert not may_moderate(user=events, tournament_id=tournament_id)
    assert not may_moderate(user=moderator, tournament_id=None)


def test_a_club_moderator_reads_and_writes_the_events_chat_without_entering(world: World) -> None:
    from social.selectors import tournament_chat_access

    a = world.message.club
    moderator = a.memberships.get(right_moderation=True, right_roles=False).user
    messenger = a.memberships.get(right_messages=True, right_roles=False).user
    tournament_id = world.report.message.tournament_id
    assert tournament_chat_access(user=moderator, tournament_id=tournament_id).write
    assert not tournament_chat_access(user=messenger, tournament_id=tournament_id).read
