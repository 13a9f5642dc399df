"""Challenges ("Play me"): accepted, declined, expired, cancelled, refused across a
block; the table they make; the notices live on the social socket; the API."""

from __future__ import annotations

import html
import json
import re
import uuid
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from config.asgi import application
from games.models import Table
from social import errors, selectors, services
from social.models import Challenge
from tests.factories import UserFactory
from tests.integration.conftest import redis_layer
from tests.social.helpers import signed_in_client, ws_headers

pytestmark = pytest.mark.django_db

S = Challenge.Status


def test_an_accepted_challenge_seats_everybody_at_a_private_table_and_starts_it() -> None:
    ann, bob, cid = UserFactory(), UserFactory(), UserFactory()
    challenge = services.challenge_create(
        user=ann, invited=[bob, cid], players=4, move_seconds=20, bot_level="strong"
    )
    services.challenge_answer(user=bob, challenge_id=challenge.pk, accept=True)
    challenge.refresh_from_db()
    assert challenge.status == S.PENDING and challenge.table is None  # cid has not answered
    services.challenge_answer(user=cid, challenge_id=challenge.pk, accept=True)
    challenge.refresh_from_db()
    table = challenge.table
    assert challenge.status == S.ACCEPTED and table is not None
    assert table.is_private and table.status == Table.Status.PLAYING
    assert table.players == 4 and table.move_seconds == 20 and not table.rated
    seats = list(table.seats.order_by("number"))
    assert {s.user_id for s in seats if s.user_id} == {ann.pk, bob.pk, cid.pk}
    assert [s.bot_level for s in seats if s.user_id is None] == ["strong"]


def test_a_rated_challenge_makes_a_rated_table() -> None:
    ann, bob = UserFactory(), UserFactory()
    challenge = services.challenge_create(user=ann, invited=[bob], players=2, rated=True)
    services.challenge_answer(user=bob, challenge_id=challenge.pk, accept=True)
    challenge.refresh_from_db()
    assert challenge.table is not None and challenge.table.rated
    assert challenge.table.seats.count() == 2


def test_a_decline_closes_the_challenge_and_makes_no_table() -> None:
    ann, bob, cid = UserFactory(), UserFactory(), UserFactory()
    challenge = services.challenge_create(user=ann, invited=[bob, cid])
    services.challenge_answer(user=bob, challenge_id=challenge.pk, accept=False)
    challenge.refresh_from_db()
    assert challenge.status == S.DECLINED
    with pytest.raises(errors.WrongState):
        services.challenge_answer(user=cid, challenge_id=challenge.pk, accept=True)
    assert not Table.objects.exists()


def test_an_expired_challenge_cannot_be_accepted() -> None:
    ann, bob = UserFactory(), UserFactory()
    challenge = services.challenge_create(user=ann, invited=[bob])
    Challenge.objects.filter(pk=challenge.pk).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    with pytest.raises(errors.WrongState):
        services.challenge_answer(user=bob, challenge_id=challenge.pk, accept=True)
    challenge.refresh_from_db()
    assert challenge.status == S.EXPIRED
    assert not Table.objects.exists()


def test_the_sweep_expires_challenges_past_their_time_only() -> None:
    ann, bob, cid = UserFactory(), UserFactory(), UserFactory()
    old = services.challenge_create(user=ann, invited=[bob])
    fresh = services.challenge_create(user=ann, invited=[cid])
    Challenge.objects.filter(pk=old.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert services.challenges_expire() == 1
    assert Challenge.objects.get(pk=old.pk).status == S.EXPIRED
    assert Challenge.objects.get(pk=fresh.pk).status == S.PENDING


def test_a_challenge_to_a_player_who_blocks_or_is_blocked_is_refused() -> None:
    ann, bob, cid = UserFactory(), UserFactory(), UserFactory()
    services.block_create(user=bob, target=ann)
    services.block_create(user=ann, target=cid)
    for target in (bob, cid):
        with pytest.raises(errors.Blocked):
            services.challenge_create(user=ann, invited=[target])
    assert not Challenge.objects.exists()


def test_a_block_after_the_challenge_stops_its_table() -> None:
    ann, bob = UserFactory(), UserFactory()
    challenge = services.challenge_create(user=ann, invited=[bob])
    services.block_create(user=ann, target=bob)
    with pytest.raises(errors.Blocked):
        services.challenge_answer(user=bob, challenge_id=challenge.pk, accept=True)
    assert not Table.objects.exists()


@pytest.mark.parametrize(
    ("players", "invited"), [(2, 2), (3, 3), (4, 0)], ids=["two-for-two", "three", "nobody"]
)
def test_a_challenge_invites_one_or_two_people_fewer_than_the_seats(
    players: int, invited: int
) -> None:
    ann = UserFactory()
    with pytest.raises(errors.Invalid):
        services.challenge_create(
            user=ann, invited=[UserFactory() for _ in range(invited)], players=players
        )


def test_nobody_challenges_himself_or_with_a_wrong_clock_or_rules() -> None:
    ann, bob = UserFactory(), UserFactory()
    with pytest.raises(errors.Invalid):
        services.challenge_create(user=ann, invited=[ann])
    with pytest.raises(errors.Invalid):
        services.challenge_create(user=ann, invited=[bob], move_seconds=0)
    with pytest.raises(errors.Invalid):
        services.challenge_create(user=ann, invited=[bob], preset="no-such-rules")
    with pytest.raises(errors.Invalid):
        services.challenge_create(user=ann, invited=[bob], rated=True, options={"target": 500})
    assert not Challenge.objects.exists()


def test_only_the_invited_answer_and_only_the_challenger_cancels() -> None:
    ann, bob, eve = UserFactory(), UserFactory(), UserFactory()
    challenge = services.challenge_create(user=ann, invited=[bob])
    with pytest.raises(errors.NotFound):
        services.challenge_answer(user=eve, challenge_id=challenge.pk, accept=True)
    with pytest.raises(errors.NotFound):
        services.challenge_cancel(user=bob, challenge_id=challenge.pk)
    services.challenge_cancel(user=ann, challenge_id=challenge.pk)
    with pytest.raises(errors.WrongState):
        services.challenge_answer(user=bob, challenge_id=challenge.pk, accept=True)


# -- the API ----------------------------------------------------------------------------


def test_api_challenge_sent_listed_and_accepted() -> None:
    ann, bob = UserFactory(), UserFactory()
    answer = signed_in_client(ann).post(
        "/api/v1/social/challenges/",
        {"invited": [bob.username], "players": 2, "move_seconds": 15},
        content_type="application/json",
    )
    assert answer.status_code == 201, answer.content
    challenge_id = answer.json()["id"]
    listed = signed_in_client(bob).get("/api/v1/social/challenges/").json()
    assert [c["id"] for c in listed] == [challenge_id]
    accepted = signed_in_client(bob).post(f"/api/v1/social/challenges/{challenge_id}/accept/")
    assert accepted.status_code == 200
    assert accepted.json()["status"] == "accepted" and accepted.json()["table_id"]


def test_api_refuses_a_challenge_across_a_block_in_the_one_error_shape() -> None:
    ann, bob = UserFactory(), UserFactory()
    services.block_create(user=bob, target=ann)
    answer = signed_in_client(ann).post(
        "/api/v1/social/challenges/", {"invited": [bob.username]}, content_type="application/json"
    )
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "blocked"


def test_api_answers_an_unknown_answer_with_not_found() -> None:
    ann, bob = UserFactory(), UserFactory()
    challenge = services.challenge_create(user=ann, invited=[bob])
    answer = signed_in_client(bob).post(f"/api/v1/social/challenges/{challenge.pk}/maybe/")
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "not_found"


def test_the_challenge_page_sends_a_challenge() -> None:
    ann, bob = UserFactory(), UserFactory()
    client = signed_in_client(ann)
    page = client.get(f"/social/challenge/?to={bob.username}")
    assert page.status_code == 200 and f'value="{bob.username}"' in page.content.decode()
    sent = client.post(
        "/social/challenge/",
        {"to1": bob.username, "players": 3, "preset": "classic", "move_seconds": 30,
         "bot_level": "basic"},
    )  # fmt: skip
    assert sent.status_code == 302
    assert Challenge.objects.get().invites.get().user == bob


def test_the_challenge_page_shows_a_refusal_and_sends_nothing() -> None:
    ann, bob = UserFactory(), UserFactory()
    services.block_create(user=bob, target=ann)
    answer = signed_in_client(ann).post(
        "/social/challenge/",
        {"to1": bob.username, "players": 3, "preset": "classic", "move_seconds": 30,
         "bot_level": "basic"},
    )  # fmt: skip
    assert answer.status_code == 400
    assert "does not take messages or challenges" in answer.content.decode()
    assert not Challenge.objects.exists()


def test_the_notice_names_the_challenges_rules_in_the_page_language() -> None:
    client = signed_in_client(UserFactory())

    page = client.get("/social/friends/", HTTP_ACCEPT_LANGUAGE="uk").content.decode()

    found = re.search(r'data-strings="([^"]*)"', page)
    assert found and json.loads(html.unescape(found[1]))["presets"]["classic"] == "Класика"


# -- live, on the social socket ---------------------------------------------------------


@pytest.mark.asyncio
@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
async def test_the_invited_sees_the_challenge_live_and_both_are_sent_to_the_table(
    settings: Any, redis_url: str
) -> None:
    settings.CHANNEL_LAYERS = redis_layer(redis_url, prefix=f"test-{uuid.uuid4().hex[:8]}")
    ann, bob = await sync_to_async(UserFactory)(), await sync_to_async(UserFactory)()

    async def socket(user: Any) -> WebsocketCommunicator:
        ws = WebsocketCommunicator(
            application, "/ws/social/", headers=await sync_to_async(ws_headers)(user)
        )
        assert (await ws.connect())[0]
        first = json.loads(await ws.receive_from(timeout=5))
        assert first == {"type": "challenges", "me": user.pk, "items": []}
        return ws

    async def next_challenge(ws: WebsocketCommunicator) -> dict[str, Any]:
        while True:
            message = json.loads(await ws.receive_from(timeout=5))
            if message["type"] == "challenge":
                return message

    a, b = await socket(ann), await socket(bob)
    challenge = await sync_to_async(services.challenge_create)(user=ann, invited=[bob], players=2)
    seen = await next_challenge(b)
    assert seen["id"] == challenge.pk and seen["from"]["id"] == ann.pk
    assert (await next_challenge(a))["status"] == "pending"
    await b.send_to(
        text_data=json.dumps({"type": "answer", "id": 1, "challenge": challenge.pk, "accept": True})
    )
    for ws in (a, b):
        done = await next_challenge(ws)
        assert done["status"] == "accepted" and done["table_id"] is not None
    await a.disconnect()
    await b.disconnect()


def test_a_challenge_below_the_barrels_least_win_is_refused_with_the_reason() -> None:
    ann, bob = UserFactory(), UserFactory()
    with pytest.raises(errors.Invalid, match="won only from the barrel"):
        services.challenge_create(user=ann, invited=[bob], options={"target": 200})


def test_a_challenge_without_the_barrel_may_play_to_a_small_target() -> None:
    ann, bob = UserFactory(), UserFactory()
    challenge = services.challenge_create(
        user=ann, invited=[bob], options={"target": 300, "barrel": False}
    )
    assert challenge.options["target"] == 300


def test_the_challenge_notice_names_the_options_that_differ_from_the_presets() -> None:
    ann, bob = UserFactory(), UserFactory()
    challenge = services.challenge_create(
        user=ann, invited=[bob], options={"target": 1200, "golden": True}
    )
    payload = selectors.challenge_payload(challenge)
    assert payload["changes"] == [["target", 1200], ["golden", True]]
