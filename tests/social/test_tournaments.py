"""The social app in the tournaments: the entrants' chat, the organiser's announcements in
it, who is online in the entrants list, and the reminders before the start."""

from __future__ import annotations

import json
import uuid
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils.translation import override

from config.asgi import application
from social import errors, presence, services
from social.models import ChatMessage
from tests.factories import UserFactory
from tests.integration.conftest import redis_layer
from tests.social.helpers import signed_in_client, ws_headers
from tests.tournaments.helpers import TournamentFactory, entered, running
from tournaments import notices
from tournaments.models import Notification, Registration
from tournaments.selectors import notification_area, notification_text

pytestmark = pytest.mark.django_db


def test_entrants_and_the_organiser_write_in_the_tournament_chat_and_nobody_else() -> None:
    organiser = UserFactory()
    t = TournamentFactory(created_by=organiser)
    (ann,) = entered(t, 1, checked_in=False)
    services.chat_say(user=ann, tournament_id=t.pk, text="hello all")
    services.chat_say(user=organiser, tournament_id=t.pk, text="welcome")
    with pytest.raises(errors.Forbidden):
        services.chat_say(user=UserFactory(), tournament_id=t.pk, text="let me in")
    assert ChatMessage.objects.filter(tournament=t).count() == 2


def test_the_organisers_announcement_appears_in_the_tournament_chat() -> None:
    organiser = UserFactory()
    t = TournamentFactory(created_by=organiser)
    entered(t, 1, checked_in=False)
    notices.announcement_create(tournament=t, text="Round two at eight", by=organiser)
    message = ChatMessage.objects.get(tournament=t)
    assert message.announcement and message.author == organiser
    assert message.text == "Round two at eight"


def test_a_player_at_a_playing_table_reads_only_announcements_until_his_match_ends() -> None:
    organiser = UserFactory()
    t, users = running(players=3, created_by=organiser)
    late = UserFactory()
    Registration.objects.create(tournament=t, user=late, status=Registration.Status.REGISTERED)
    services.chat_say(user=late, tournament_id=t.pk, text="table 1 has the aces")
    notices.announcement_create(tournament=t, text="Ten minutes left", by=organiser)
    from social import selectors

    room = selectors.chat_room(user=users[0], tournament_id=t.pk)
    assert [m["text"] for m in room.history] == ["Ten minutes left"]


def test_the_entrants_list_marks_who_is_online() -> None:
    t = TournamentFactory()
    ann, bob = entered(t, 2, checked_in=False)
    presence.enter(channel="ann-socket", user_id=ann.pk, table_id=None)
    page = signed_in_client(bob).get(f"/tournaments/{t.pk}/").content.decode()
    entrants = page[page.index('<ul class="entrants">') :]
    entrants = entrants[: entrants.index("</ul>")]
    rows = {row.split("</li>")[0] for row in entrants.split("<li ")[1:]}
    online = [r for r in rows if "online-dot" in r]
    assert len(online) == 1 and ann.get_display_name() in online[0]


def test_the_page_reads_again_who_of_its_entrants_is_online_without_signing_in() -> None:
    t = TournamentFactory()
    ann, bob, _cleo = entered(t, 3, checked_in=False)
    presence.enter(channel="ann-socket", user_id=ann.pk, table_id=None)
    presence.enter(channel="bob-socket", user_id=bob.pk, table_id=None)
    presence.enter(channel="stranger", user_id=UserFactory().pk, table_id=None)
    presence.leave(channel="bob-socket")

    answer = Client().get(f"/api/v1/social/tournaments/{t.pk}/online/")

    assert (answer.status_code, answer.json()) == (200, {"online": [ann.pk]})


def test_who_is_online_in_no_such_tournament_is_not_found() -> None:
    answer = Client().get("/api/v1/social/tournaments/999999/online/")

    assert (answer.status_code, answer.json()["error"]["code"]) == (404, "not_found")


def test_the_tournament_page_reads_its_entrants_online_again() -> None:
    t = TournamentFactory()
    entered(t, 1, checked_in=False)

    page = Client().get(f"/tournaments/{t.pk}/").content.decode()

    assert (
        f'data-url="/api/v1/social/tournaments/{t.pk}/online/"' in page
        and "social/entrants" in page
    )


def test_entrants_are_reminded_once_before_the_start_and_before_check_in_closes(
    settings: Any,
) -> None:
    t = TournamentFactory(check_in_minutes=30)
    ann, bob = entered(t, 2, checked_in=False)
    from tournaments import services as tournament_services

    tournament_services.tournament_open_check_in(tournament=t)
    tournament_services.registration_check_in(tournament=t, user=ann)
    early = t.starts_at - timedelta(minutes=settings.SOCIAL_REMINDER_MINUTES + 1)
    assert services.reminders_send(now=early) == 0
    now = t.starts_at - timedelta(minutes=settings.SOCIAL_REMINDER_MINUTES - 1)
    assert services.reminders_send(now=now) == 2
    assert services.reminders_send(now=now + timedelta(minutes=1)) == 0  # once
    texts = {
        n.user_id: notification_text(n)
        for n in Notification.objects.filter(tournament=t).exclude(kind=Notification.Kind.CHECK_IN)
    }
    assert texts[ann.pk] == f"{t.name}: Starts in 9 minutes."
    assert texts[bob.pk] == f"{t.name}: Check-in closes in 9 minutes: check in to play."


def test_a_reminder_is_read_in_the_readers_language_whatever_it_was_sent_in() -> None:
    t = TournamentFactory()
    (ann,) = entered(t, 1, checked_in=False)
    with override("en"):
        services.reminders_send(now=t.starts_at - timedelta(minutes=5))
    with override("uk"):
        area = notification_area(user=ann)
    assert area is not None and area.items[0][1] == f"{t.name}: Починається за 5 хв."


def test_an_older_notice_that_kept_its_words_is_still_read_as_it_was_sent() -> None:
    t = TournamentFactory()
    (ann,) = entered(t, 1, checked_in=False)
    Notification.objects.create(
        user=ann, tournament=t, kind=Notification.Kind.ANNOUNCEMENT, text="Starts in 9 minutes."
    )
    with override("uk"):
        area = notification_area(user=ann)
    assert area is not None and area.items[0][1] == f"{t.name}: Starts in 9 minutes."


@pytest.mark.asyncio
@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
async def test_the_tournament_chat_reaches_its_entrants_live(settings: Any, redis_url: str) -> None:
    settings.CHANNEL_LAYERS = redis_layer(redis_url, prefix=f"test-{uuid.uuid4().hex[:8]}")
    t = await sync_to_async(TournamentFactory)()
    ann, bob = await sync_to_async(entered)(t, 2, checked_in=False)
    stranger = await sync_to_async(UserFactory)()

    async def socket(user: Any) -> tuple[WebsocketCommunicator, dict[str, Any]]:
        ws = WebsocketCommunicator(
            application,
            f"/ws/social/?tournament={t.pk}",
            headers=await sync_to_async(ws_headers)(user),
        )
        assert (await ws.connect())[0]
        while True:
            message = json.loads(await ws.receive_from(timeout=5))
            if message["type"] in ("chat.state", "error"):
                return ws, message

    (a, _), (b, _), (s, refused) = [await socket(u) for u in (ann, bob, stranger)]
    assert refused["type"] == "error" and refused["code"] == "forbidden"
    await a.send_to(text_data=json.dumps({"type": "say", "id": 1, "text": "good luck"}))
    while True:
        message = json.loads(await b.receive_from(timeout=5))
        if message["type"] == "chat":
            assert message["text"] == "good luck" and message["room"] == "tournament"
            break
    assert await s.receive_nothing(timeout=0.3)
    for ws in (a, b, s):
        await ws.disconnect()
