"""A club's messages to its members: sent by a holder of the messages right, they reach
each member's notification area in his own language (the sender's words as written),
skip the members who left them off, stay among the members, and are limited in number
and length; a refused message changes nothing (read back)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from clubs import errors, services
from clubs.models import ClubMessage, Membership
from tests.clubs.helpers import club, founder_of, member
from tests.factories import UserFactory
from tournaments import selectors as tournament_selectors
from tournaments.models import Notification

pytestmark = pytest.mark.django_db


def _snapshot() -> list[Any]:
    return [
        list(ClubMessage.objects.order_by("pk").values()),
        list(Notification.objects.order_by("pk").values()),
    ]


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _bell(user: Any, language: str) -> list[str]:
    with translation.override(language):
        area = tournament_selectors.notification_area(user=user)
        assert area is not None
        return [text for _note, text in area.items]


def test_a_message_reaches_every_member_in_his_own_language_with_the_senders_words() -> None:
    c = club(name="Kyiv Thursdays")
    writer = member(c, rights={"messages"})
    reader = member(c)
    services.club_message_send(
        club=c, sender=writer, subject="No game on the 25th", text="The hall is closed."
    )
    assert _bell(reader, "en") == ["A message from Kyiv Thursdays: No game on the 25th"]
    assert _bell(reader, "ru") == ["Сообщение от Kyiv Thursdays: No game on the 25th"]
    assert _bell(reader, "uk") == ["Повідомлення від Kyiv Thursdays: No game on the 25th"]
    told = set(Notification.objects.values_list("user_id", flat=True))
    assert told == {founder_of(c).pk, writer.pk, reader.pk}


def test_a_member_who_left_the_messages_off_is_not_told_but_reads_them_on_the_page() -> None:
    c = club()
    quiet = member(c)
    services.member_set_messages(user=quiet, club=c, off=True)
    sent = services.club_message_send(
        club=c, sender=founder_of(c), subject="Season opens", text="Come on Thursday."
    )
    assert not Notification.objects.filter(user=quiet).exists()
    assert sent.recipients == 1  # the founder only
    page = _client(quiet).get(reverse("clubs:message", args=[c.slug, sent.pk]))
    assert page.status_code == 200 and "Come on Thursday." in page.content.decode()


def test_the_bell_links_to_the_message_which_only_members_may_open() -> None:
    c = club()
    sent = services.club_message_send(
        club=c, sender=founder_of(c), subject="Private news", text="Members only."
    )
    note = Notification.objects.get()
    assert note.url == reverse("clubs:message", args=[c.slug, sent.pk])
    assert _client(UserFactory()).get(note.url).status_code == 404
    assert Client().get(note.url).status_code == 404
    other = club()
    assert _client(founder_of(other)).get(note.url).status_code == 404
    club_page = _client(UserFactory()).get(reverse("clubs:detail", args=[c.slug]))
    assert "Private news" not in club_page.content.decode()


@pytest.mark.parametrize(
    ("subject", "text"),
    [
        ("", "words"),
        ("   ", "words"),
        ("subject", ""),
        ("x" * 121, "words"),
        ("subject", "x" * 2001),
        ("sub\x00ject", "words"),
        ("subject", "wo\x00rds"),
        ("sub\u200bject", "words"),
    ],
)
def test_a_bad_message_is_refused_with_a_reason_and_nothing_is_sent(
    subject: str, text: str
) -> None:
    c = club()
    member(c)
    before = _snapshot()
    with pytest.raises(errors.Invalid) as refused:
        services.club_message_send(club=c, sender=founder_of(c), subject=subject, text=text)
    assert str(refused.value.message)
    assert _snapshot() == before


def test_a_club_sends_a_few_messages_a_day_and_no_more() -> None:
    c = club()
    for n in range(services.MESSAGES_PER_DAY):
        services.club_message_send(club=c, sender=founder_of(c), subject=f"News {n}", text="…")
    before = _snapshot()
    other_writer = member(c, rights={"messages"})
    with pytest.raises(errors.TooMany):
        services.club_message_send(club=c, sender=other_writer, subject="One more", text="…")
    assert _snapshot() == before


def test_an_archived_club_sends_no_message() -> None:
    c = club()
    services.club_archive(user=founder_of(c), club=c)
    with pytest.raises(errors.WrongState):
        services.club_message_send(club=c, sender=founder_of(c), subject="Hi", text="there")
    assert not ClubMessage.objects.exists()


def test_the_messages_right_taken_away_refuses_the_next_message() -> None:
    c = club()
    writer = member(c, rights={"messages"})
    services.member_set_rights(user=founder_of(c), club=c, member=writer, rights=set())
    with pytest.raises(errors.Forbidden):
        services.club_message_send(club=c, sender=writer, subject="Hi", text="there")
    assert not ClubMessage.objects.exists()


def test_the_form_on_the_club_page_sends_and_a_refused_one_keeps_the_words() -> None:
    c = club()
    writer = member(c, rights={"messages"})
    client = _client(writer)
    page = client.get(reverse("clubs:detail", args=[c.slug])).content.decode()
    assert reverse("clubs:message_new", args=[c.slug]) in page
    url = reverse("clubs:message_new", args=[c.slug])
    refused = client.post(url, {"subject": "  ", "text": "Kept words"})
    assert refused.status_code == 400 and "Kept words" in refused.content.decode()
    assert not ClubMessage.objects.exists()
    done = client.post(url, {"subject": "Thursday", "text": "At seven."})
    assert done.status_code == 302
    assert ClubMessage.objects.get().subject == "Thursday"
    page = client.get(reverse("clubs:detail", args=[c.slug])).content.decode()
    assert "Thursday" in page


def test_the_form_is_refused_to_a_member_without_the_right() -> None:
    c = club()
    plain = member(c)
    client = _client(plain)
    page = client.get(reverse("clubs:detail", args=[c.slug])).content.decode()
    assert reverse("clubs:message_new", args=[c.slug]) not in page
    url = reverse("clubs:message_new", args=[c.slug])
    assert client.post(url, {"subject": "Hi", "text": "there"}).status_code == 403
    assert not ClubMessage.objects.exists()


def test_a_member_turns_the_messages_off_and_on_from_the_club_page() -> None:
    c = club()
    someone = member(c)
    client = _client(someone)
    client.post(reverse("clubs:action", args=[c.slug, "messages-off"]))
    assert Membership.objects.get(club=c, user=someone).messages_off
    client.post(reverse("clubs:action", args=[c.slug, "messages-on"]))
    assert not Membership.objects.get(club=c, user=someone).messages_off


def test_a_stranger_has_no_messages_switch_to_turn() -> None:
    c = club()
    stranger = UserFactory()
    _client(stranger).post(reverse("clubs:action", args=[c.slug, "messages-off"]))
    assert not Membership.objects.filter(user=stranger).exists()


def test_the_api_sends_lists_and_switches_the_messages() -> None:
    c = club()
    reader = member(c)
    api = APIClient()
    api.force_authenticate(founder_of(c))
    path = f"/api/v1/clubs/{c.slug}/messages/"
    sent = api.post(path, {"subject": "Cup", "text": "Sign up."}, format="json")
    assert sent.status_code == 201 and sent.json()["recipients"] == 2
    api.force_authenticate(reader)
    assert [m["subject"] for m in api.get(path).json()] == ["Cup"]
    me = f"/api/v1/clubs/{c.slug}/membership/"
    assert api.get(me).json()["messages_off"] is False
    assert api.patch(me, {"messages_off": True}, format="json").json()["messages_off"] is True
    assert Membership.objects.get(club=c, user=reader).messages_off


def test_the_api_refuses_a_bad_message_in_the_error_shape_and_sends_nothing() -> None:
    c = club()
    api = APIClient()
    api.force_authenticate(founder_of(c))
    path = f"/api/v1/clubs/{c.slug}/messages/"
    for body in ({"subject": "", "text": "x"}, {"subject": "x", "text": "y" * 2001}, {}):
        answer = api.post(path, body, format="json")
        assert answer.status_code == 400 and set(answer.json()) == {"error"}
    assert not ClubMessage.objects.exists() and not Notification.objects.exists()


def test_the_api_answers_the_days_limit_with_429() -> None:
    c = club()
    api = APIClient()
    api.force_authenticate(founder_of(c))
    path = f"/api/v1/clubs/{c.slug}/messages/"
    for n in range(services.MESSAGES_PER_DAY):
        assert api.post(path, {"subject": f"N{n}", "text": "x"}, format="json").status_code == 201
    answer = api.post(path, {"subject": "More", "text": "x"}, format="json")
    assert answer.status_code == 429 and answer.json()["error"]["code"] == "rate_limited"
    assert ClubMessage.objects.count() == services.MESSAGES_PER_DAY


@pytest.mark.parametrize("caller", ["anonymous", "stranger", "other_club", "member", "superuser"])
def test_only_members_read_the_messages_through_the_api(caller: str) -> None:
    c = club()
    services.club_message_send(club=c, sender=founder_of(c), subject="Inside", text="x")
    user = {
        "anonymous": None,
        "stranger": UserFactory(),
        "other_club": founder_of(club()),
        "member": member(c),
        "superuser": UserFactory(is_superuser=True, is_staff=True),
    }[caller]
    api = APIClient()
    if user is not None:
        api.force_authenticate(user)
    answer = api.get(f"/api/v1/clubs/{c.slug}/messages/")
    if caller in ("member", "superuser"):
        assert [m["subject"] for m in answer.json()] == ["Inside"]
    else:
        assert answer.status_code in (401, 403) and "Inside" not in answer.content.decode()


def test_the_membership_endpoint_of_a_non_member_is_404() -> None:
    c = club()
    api = APIClient()
    stranger = UserFactory()
    api.force_authenticate(stranger)
    path = f"/api/v1/clubs/{c.slug}/membership/"
    assert api.get(path).status_code == 404
    assert api.patch(path, {"messages_off": True}, format="json").status_code == 404
    assert not Membership.objects.filter(user=stranger).exists()


def test_a_message_is_mailed_only_to_members_who_chose_club_messages(
    django_capture_on_commit_callbacks: Any,
) -> None:
    from accounts.models import Mail, NoticeChoice, NoticeKind

    c = club(name="Lviv Fridays")
    writer = member(c, rights={"messages"})
    chose = member(c)
    did_not = member(c)
    for reader in (chose, did_not):
        reader.email = f"{reader.username}@example.com"
        reader.save(update_fields=["email"])
    NoticeChoice.objects.create(user=chose, kind=NoticeKind.CLUB_MESSAGE)
    with django_capture_on_commit_callbacks(execute=True):
        services.club_message_send(club=c, sender=writer, subject="Finals", text="Bring tea.")
    mailed = set(Mail.objects.filter(kind=NoticeKind.CLUB_MESSAGE).values_list("to", flat=True))
    assert mailed == {chose.email}
