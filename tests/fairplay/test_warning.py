"""A warned player is told, in general words and his language, with a link to the
fair-play rules; a flag itself is never shown to him nor to anybody else."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from fairplay.models import Flag
from fairplay.services import flag_review, match_screen
from tests.factories import UserFactory
from tests.fairplay.helpers import rated_table, record_of
from tournaments.models import Notification

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _few_decisions(settings):
    settings.FAIRPLAY_SCREEN_DECISIONS = 3
    settings.FAIRPLAY_MIN_MATCHES = 6


def moderator():
    user = UserFactory(is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="review_flag"))
    return user


def _flagged_pair(names=("feederfox", "partnerowl", "thirdbear")):
    """A feeder and his partner flagged after six matches, with a third person at the
    table: their flag's evidence names both players and the matches."""
    a, b, c = (UserFactory(username=n) for n in names)
    for seed in range(1, 7):
        table = rated_table(record_of("feeder", seed=seed, deals=8), [a, b, c])
        match_screen(result_id=table.result.pk)
    flag = Flag.objects.get(kind=Flag.Kind.PAIR, user__in=[a, b], partner__in=[a, b])
    return flag, a, b, c


def _bell(user, language=""):
    user.preferred_language = language
    user.save(update_fields=["preferred_language"])
    client = Client()
    client.force_login(user)
    return client.get(reverse("tournaments:notifications")).content.decode()


def _flag_words(flag, *people):
    """What would give the flag away: its players' names (the other's above all), its
    score, its kind and the matches of its evidence."""
    words = [p.username for p in people] + [f"{flag.score:.2f}", "collusion", "engine"]
    return words + [f"/tables/{t}/" for t in flag.evidence["matches"]]


def test_warning_a_pair_tells_both_players_with_a_link_to_the_fair_play_rules():
    flag, a, b, c = _flagged_pair()

    flag_review(flag_id=flag.pk, user=moderator(), status=Flag.Status.WARNED)

    told = Notification.objects.filter(kind=Notification.Kind.FAIR_PLAY)
    assert sorted(told.values_list("user_id", flat=True)) == sorted([a.pk, b.pk])
    assert {n.url for n in told} == {reverse("fairplay:rules")}
    assert all(n.params == {} and n.text == "" and n.tournament_id is None for n in told)
    assert not Notification.objects.filter(user=c).exists()


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", "A reminder from the moderators"), ("ru", "Напоминание"), ("uk", "Нагадування")],
)
def test_the_warning_reads_in_the_players_language_and_names_nothing_of_the_flag(language, words):
    flag, a, b, _third = _flagged_pair()
    flag_review(flag_id=flag.pk, user=moderator(), status=Flag.Status.WARNED, note="phone")

    for me, other in ((a, b), (b, a)):
        page = _bell(me, language)
        assert words in page
        assert reverse("fairplay:rules") in page
        for word in [*_flag_words(flag, other), "phone"]:
            assert word not in page


def test_the_fair_play_rules_page_is_open_to_everybody_and_names_nobody():
    flag, a, b, _third = _flagged_pair()
    flag_review(flag_id=flag.pk, user=moderator(), status=Flag.Status.WARNED)

    for client, others in ((Client(), (a, b)), (_signed_in(a), (b,))):
        page = client.get(reverse("fairplay:rules"))
        assert page.status_code == 200
        text = page.content.decode()
        assert "<h1>Fair play</h1>" in text
        for word in _flag_words(flag, *others):
            assert word not in text


def _signed_in(user):
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize("status", [Flag.Status.DISMISSED, Flag.Status.CHEATING])
def test_dismissing_or_marking_a_flag_tells_nobody(status):
    flag, a, b, c = _flagged_pair()

    flag_review(flag_id=flag.pk, user=moderator(), status=status, note="seen")

    # No entries were open, so nothing at all lands in anybody's notifications.
    assert not Notification.objects.exists()
    for me in (a, b, c):
        page = _bell(me)
        assert "No notifications yet." in page
        for word in _flag_words(flag, *({a, b} - {me})):
            assert word not in page
