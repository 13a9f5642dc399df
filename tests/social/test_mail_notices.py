"""Notices by mail from the social app and the tournaments: a challenge to a person who is
not on the site, the reminders before a tournament, its start (the table ready). Sent
only to whoever chose the kind (accounts.services.notice_queue decides)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from accounts.models import NoticeKind
from accounts.services import notices_choose
from social import presence, services
from tests.factories import UserFactory
from tests.games.helpers import committed
from tests.tournaments.helpers import TournamentFactory, entered, step

pytestmark = pytest.mark.django_db


def chosen(user: Any, *kinds: str, language: str = "") -> Any:
    """``user`` with a confirmed address (as the mailed link leaves it) and ``kinds``."""
    user.email = f"{user.username}@example.com"
    user.preferred_language = language
    user.save(update_fields=["email", "preferred_language"])
    notices_choose(user=user, kinds=kinds)
    return user


def test_a_challenge_is_mailed_to_an_invited_person_who_is_not_on_the_site(mailoutbox) -> None:
    ann = UserFactory(display_name="Ann")
    bob = chosen(UserFactory(), NoticeKind.CHALLENGE)

    with committed():
        services.challenge_create(user=ann, invited=[bob], players=3)

    [mail] = mailoutbox
    assert mail.to == [bob.email]
    assert "Ann challenges you" in mail.subject
    assert "/social/friends/" in mail.body
    assert mail.extra_headers["List-Unsubscribe"].startswith("<http")


def test_no_challenge_is_mailed_to_a_person_on_the_site(mailoutbox) -> None:
    ann = UserFactory()
    bob = chosen(UserFactory(), NoticeKind.CHALLENGE)
    presence.enter(channel="bob-open-page", user_id=bob.pk, table_id=None)
    try:
        with committed():
            services.challenge_create(user=ann, invited=[bob], players=3)
    finally:
        presence.leave(channel="bob-open-page")

    assert mailoutbox == []


def test_no_challenge_is_mailed_to_a_person_who_did_not_choose_it(mailoutbox) -> None:
    bob = chosen(UserFactory(), NoticeKind.TOURNAMENT_REMINDER)

    with committed():
        services.challenge_create(user=UserFactory(), invited=[bob], players=3)

    assert mailoutbox == []


def test_the_reminder_before_a_tournament_is_mailed_in_the_entrants_language(
    mailoutbox,
) -> None:
    t = TournamentFactory(name="Winter cup")
    ann, _bob = entered(t, 2, checked_in=False)
    chosen(ann, NoticeKind.TOURNAMENT_REMINDER, language="uk")

    with committed():
        services.reminders_send(now=t.starts_at - timedelta(minutes=5))

    [mail] = mailoutbox
    assert mail.to == [ann.email]
    assert mail.subject == "Winter cup"
    assert "Winter cup: Починається за 5 хв." in mail.body
    assert "Winter cup: Починається за 5 хв." in mail.alternatives[0][0]


def test_the_start_of_a_tournament_is_mailed_to_the_players_who_chose_it(mailoutbox) -> None:
    t = TournamentFactory(name="Spring cup")
    users = entered(t, 3)
    chosen(users[0], NoticeKind.TOURNAMENT_START)
    chosen(users[1], NoticeKind.TOURNAMENT_REMINDER)

    step(t, 0)  # start: round 1 seated
    step(t, 0)  # its tables open

    assert [m.to for m in mailoutbox] == [[users[0].email]]
    assert "Spring cup: your table is ready." in mailoutbox[0].body
    assert "/tables/" in mailoutbox[0].body
