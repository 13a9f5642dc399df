"""What keeps challenges from being a door past the caps or a way to spam: a challenge's
table counts against its challenger's caps on tables of bots (his own and his address's);
one challenge waits between two people at a time; a person has only a few waiting; and
a person may take challenges only from the people he follows."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from games import services as table_services
from games.models import Table
from social import errors, services
from social.models import Challenge, SocialSettings
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

S = Challenge.Status
HOME = "198.51.100.20"


def at_his_cap(settings: Any, user: Any, address: str = HOME) -> None:
    for _ in range(settings.GAMES_BOT_TABLES_PER_USER):
        table_services.table_play_bots(user=user, address=address)


def client_at(user: Any, address: str) -> Client:
    client = Client(REMOTE_ADDR=address)
    client.force_login(user)
    return client


# ------------------------------------------------------------------ the caps on tables of bots


def test_a_challenge_accepted_while_its_challenger_is_at_his_cap_starts_no_table(
    settings: Any,
) -> None:
    ann, bob = UserFactory(), UserFactory()
    challenge = services.challenge_create(user=ann, invited=[bob], bot_level="basic")
    at_his_cap(settings, ann)

    with pytest.raises(errors.TooManyBotTables):
        services.challenge_answer(user=bob, challenge_id=challenge.pk, accept=True)

    challenge.refresh_from_db()
    assert (challenge.status, challenge.table_id) == (S.PENDING, None)


def test_master_challenges_accepted_at_once_start_only_one_table_of_masters() -> None:
    ann = UserFactory()
    invited = [UserFactory() for _ in range(3)]
    challenges = [
        services.challenge_create(user=ann, invited=[person], bot_level="master")
        for person in invited
    ]

    for person, challenge in zip(invited, challenges, strict=True):
        with contextlib.suppress(errors.TooManyBotTables):
            services.challenge_answer(user=person, challenge_id=challenge.pk, accept=True)

    assert Table.objects.filter(created_by=ann, status=Table.Status.PLAYING).count() == 1


def test_a_challenge_sent_at_the_cap_is_refused_at_once(settings: Any) -> None:
    ann, bob = UserFactory(), UserFactory()
    at_his_cap(settings, ann)

    with pytest.raises(errors.TooManyBotTables):
        services.challenge_create(user=ann, invited=[bob])


def test_a_challenge_without_bots_is_not_held_back_by_the_caps(settings: Any) -> None:
    ann, bob = UserFactory(), UserFactory()
    at_his_cap(settings, ann)
    challenge = services.challenge_create(user=ann, invited=[bob], players=2)

    services.challenge_answer(user=bob, challenge_id=challenge.pk, accept=True)

    challenge.refresh_from_db()
    assert challenge.table is not None and challenge.table.status == Table.Status.PLAYING


def test_a_challenge_table_counts_against_the_address_it_was_sent_from(settings: Any) -> None:
    settings.GAMES_BOT_TABLES_PER_ADDRESS = 1
    ann, bob = UserFactory(), UserFactory()
    sent = client_at(ann, HOME).post(
        "/api/v1/social/challenges/", {"invited": [bob.username]}, content_type="application/json"
    )
    table_services.table_play_bots(user=UserFactory(), address=HOME)  # the address's one table

    answer = client_at(bob, "203.0.113.5").post(
        f"/api/v1/social/challenges/{sent.json()['id']}/accept/"
    )

    assert answer.json()["error"]["code"] == "too_many_bot_tables"


def test_the_challenge_page_refuses_a_challenge_past_the_address_cap(settings: Any) -> None:
    settings.GAMES_BOT_TABLES_PER_ADDRESS = 1
    ann, bob = UserFactory(), UserFactory()
    table_services.table_play_bots(user=UserFactory(), address=HOME)

    page = client_at(ann, HOME).post(
        "/social/challenge/",
        {"to1": bob.username, "players": 3, "preset": "classic", "move_seconds": 30,
         "bot_level": "basic"},
    )  # fmt: skip

    assert page.status_code == 400 and not Challenge.objects.exists()


# ------------------------------------------------------------------ spam


def test_a_second_challenge_between_the_same_two_people_is_refused() -> None:
    ann, bob = UserFactory(), UserFactory()
    services.challenge_create(user=ann, invited=[bob])

    with pytest.raises(errors.ChallengePending, match="already waiting"):
        services.challenge_create(user=ann, invited=[bob])


def test_a_challenge_back_while_one_waits_between_them_is_refused() -> None:
    ann, bob = UserFactory(), UserFactory()
    services.challenge_create(user=ann, invited=[bob])

    with pytest.raises(errors.ChallengePending):
        services.challenge_create(user=bob, invited=[ann])


def test_a_closed_challenge_frees_the_pair() -> None:
    ann, bob = UserFactory(), UserFactory()
    first = services.challenge_create(user=ann, invited=[bob])
    services.challenge_answer(user=bob, challenge_id=first.pk, accept=False)

    again = services.challenge_create(user=ann, invited=[bob])

    assert again.status == S.PENDING


def test_a_challenger_may_have_only_a_few_challenges_waiting(settings: Any) -> None:
    settings.SOCIAL_CHALLENGES_PER_USER = 2
    ann = UserFactory()
    for _ in range(2):
        services.challenge_create(user=ann, invited=[UserFactory()])

    with pytest.raises(errors.TooManyChallenges):
        services.challenge_create(user=ann, invited=[UserFactory()])


def test_the_api_refuses_the_second_challenge_in_its_error_shape_translated() -> None:
    ann, bob = UserFactory(), UserFactory()
    client = client_at(ann, HOME)
    body = {"invited": [bob.username]}
    client.post("/api/v1/social/challenges/", body, content_type="application/json")

    answer = client.post(
        "/api/v1/social/challenges/",
        body,
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="ru",
    )

    assert answer.status_code == 409 and answer.json()["error"]["code"] == "challenge_pending"
    with translation.override("en"):
        assert "already waiting" not in answer.json()["error"]["message"]


def test_a_person_who_takes_challenges_only_from_people_he_follows_refuses_a_stranger() -> None:
    ann, bob = UserFactory(), UserFactory()
    services.social_settings_update(user=bob, challenges=SocialSettings.Challenges.FOLLOWED)

    with pytest.raises(errors.ChallengesClosed):
        services.challenge_create(user=ann, invited=[bob])


def test_a_person_who_takes_challenges_only_from_people_he_follows_takes_them_from_those() -> None:
    ann, bob = UserFactory(), UserFactory()
    services.social_settings_update(user=bob, challenges=SocialSettings.Challenges.FOLLOWED)
    services.follow_create(user=bob, target=ann)

    assert services.challenge_create(user=ann, invited=[bob]).status == S.PENDING
