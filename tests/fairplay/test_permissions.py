"""The fair-play queue's permissions over every admin address and action: moderators
(the site's permission ``fairplay.review_flag``, alone or through a group) only; staff,
club organisers, players and the flagged player see none of it and change nothing
unless the site gives them the right."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import Group, Permission
from django.urls import reverse
from django.utils import timezone

from fairplay.models import Flag, Voiding
from tests.clubs.helpers import club, founder_of
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _right():
    return Permission.objects.get(codename="review_flag")


@pytest.fixture
def flag():
    return Flag.objects.create(
        kind=Flag.Kind.PAIR, user=UserFactory(username="suspect"),
        partner=UserFactory(username="friend"), score=5.0, threshold=3.0, matches=12,
        evidence={"matches": [], "parts": {"soft_play": 5.0}},
    )  # fmt: skip


@pytest.fixture
def voiding(flag):
    Flag.objects.filter(pk=flag.pk).update(status=Flag.Status.CHEATING)
    return Voiding.objects.create(flag=flag, since=timezone.now() - timedelta(days=3))


def _organiser():
    """A club's founder (every club right, club moderation included), allowed into the
    admin for his club's events."""
    c = club()
    user = founder_of(c)
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    return user


def _urls(flag, voiding):
    return [
        reverse("admin:fairplay_flag_changelist"),
        reverse("admin:fairplay_flag_change", args=[flag.pk]),
        reverse("admin:fairplay_flag_history", args=[flag.pk]),
        reverse("admin:fairplay_voiding_changelist"),
        reverse("admin:fairplay_voiding_change", args=[voiding.pk]),
        reverse("admin:fairplay_voiding_history", args=[voiding.pk]),
        reverse("admin:app_list", args=["fairplay"]),
    ]


REFUSED = {
    "a staff member": lambda flag: UserFactory(is_staff=True),
    "a club organiser": lambda flag: _organiser(),
}


@pytest.mark.parametrize("who", list(REFUSED))
def test_staff_and_club_organisers_reach_no_fairplay_address(client, flag, voiding, who):
    client.force_login(REFUSED[who](flag))

    for url in _urls(flag, voiding):
        assert client.get(url).status_code in (403, 404), url
    assert "fairplay" not in client.get(reverse("admin:index")).content.decode()


@pytest.mark.parametrize("who", ["nobody", "a player", "the flagged player"])
def test_players_are_sent_to_sign_in_from_every_fairplay_address(client, flag, voiding, who):
    if who == "a player":
        client.force_login(UserFactory())
    elif who == "the flagged player":
        client.force_login(flag.user)

    for url in _urls(flag, voiding):
        response = client.get(url)
        assert response.status_code == 302 and "/login/" in response["Location"], url


@pytest.mark.parametrize("action", ["dismiss", "warn", "mark_cheating", "unmark"])
@pytest.mark.parametrize("who", ["a staff member", "a club organiser"])
def test_no_verdict_is_given_without_the_right(client, flag, who, action):
    client.force_login(REFUSED[who](flag))

    response = client.post(
        reverse("admin:fairplay_flag_changelist"),
        {"action": action, "_selected_action": [flag.pk]},
    )

    assert response.status_code == 403
    flag.refresh_from_db()
    assert (flag.status, flag.reviewed_by) == (Flag.Status.OPEN, None)


def test_no_verdict_nor_voiding_is_given_from_the_flags_page_without_the_right(client, flag):
    client.force_login(_organiser())

    response = client.post(
        reverse("admin:fairplay_flag_change", args=[flag.pk]),
        {"verdict": "cheating", "review_note": "x", "void_from": "2020-01-01 00:00:00"},
    )

    assert response.status_code == 403
    flag.refresh_from_db()
    assert flag.status == Flag.Status.OPEN and flag.note == ""
    assert not Voiding.objects.exists()


def test_a_voiding_is_not_undone_without_the_right(client, voiding):
    client.force_login(_organiser())

    response = client.post(
        reverse("admin:fairplay_voiding_changelist"),
        {"action": "undo", "_selected_action": [voiding.pk]},
    )

    assert response.status_code == 403
    voiding.refresh_from_db()
    assert voiding.undone_at is None


def _moderator_by_permission():
    user = UserFactory(is_staff=True)
    user.user_permissions.add(_right())
    return user


def _moderator_by_group():
    group, _ = Group.objects.get_or_create(name="Fair-play moderators")
    group.permissions.add(_right())
    user = UserFactory(is_staff=True)
    user.groups.add(group)
    return user


def _organiser_given_the_right():
    user = _organiser()
    user.user_permissions.add(_right())
    return user


@pytest.mark.parametrize(
    "make", [_moderator_by_permission, _moderator_by_group, _organiser_given_the_right]
)
def test_whoever_the_site_gives_the_right_reaches_every_address(client, flag, voiding, make):
    client.force_login(make())

    for url in _urls(flag, voiding):
        assert client.get(url).status_code == 200, url


def test_a_moderator_by_group_gives_a_verdict(client, flag):
    mod = _moderator_by_group()
    client.force_login(mod)

    client.post(
        reverse("admin:fairplay_flag_changelist"),
        {"action": "warn", "_selected_action": [flag.pk]},
    )

    flag.refresh_from_db()
    assert (flag.status, flag.reviewed_by) == (Flag.Status.WARNED, mod)


def test_nobody_adds_or_deletes_flags_or_voidings(client, flag, voiding):
    client.force_login(_moderator_by_permission())

    for url in (
        reverse("admin:fairplay_flag_add"),
        reverse("admin:fairplay_flag_delete", args=[flag.pk]),
        reverse("admin:fairplay_voiding_add"),
        reverse("admin:fairplay_voiding_delete", args=[voiding.pk]),
    ):
        assert client.get(url).status_code == 403, url
        assert client.post(url, {"post": "yes"}).status_code == 403, url
    assert Flag.objects.filter(pk=flag.pk).exists() and Voiding.objects.count() == 1
