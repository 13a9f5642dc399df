"""The fair-play queue in the admin: moderators only, the evidence, the verdicts."""

from __future__ import annotations

import pytest
from django.urls import reverse

from fairplay.models import Flag
from fairplay.services import match_screen
from tests.factories import UserFactory
from tests.fairplay.helpers import rated_table, record_of
from tests.fairplay.test_services import moderator

pytestmark = pytest.mark.django_db

QUEUE = reverse("admin:fairplay_flag_changelist")


@pytest.fixture
def flag(settings):
    """A feeder's pair flagged after six screened matches."""
    settings.FAIRPLAY_SCREEN_DECISIONS = 1
    settings.FAIRPLAY_MIN_MATCHES = 6
    a, b = UserFactory(username="giver"), UserFactory(username="taker")
    for seed in range(1, 7):
        table = rated_table(record_of("feeder", seed=seed, deals=8), [a, b])
        match_screen(result_id=table.result.pk)
    return Flag.objects.get()


def test_a_moderator_sees_the_queue(client, flag):
    client.force_login(moderator())

    page = client.get(QUEUE).content.decode()

    assert str(flag.user) in page and str(flag.partner) in page


def test_a_moderator_sees_the_evidence_with_links_to_the_matches(client, flag):
    client.force_login(moderator())

    page = client.get(reverse("admin:fairplay_flag_change", args=[flag.pk])).content.decode()

    first = flag.evidence["matches"][0]
    assert reverse("games:replay", args=[first]) in page
    assert "feeding_ab" in page and "giver" in page


def test_staff_without_the_moderators_right_see_no_queue(client, flag):
    client.force_login(UserFactory(is_staff=True))

    assert client.get(QUEUE).status_code == 403
    assert "fairplay" not in client.get(reverse("admin:index")).content.decode()


def test_the_flagged_player_cannot_open_the_queue(client, flag):
    client.force_login(flag.user)

    response = client.get(reverse("admin:fairplay_flag_change", args=[flag.pk]))

    assert response.status_code == 302 and "/login/" in response["Location"]


def test_a_moderator_dismisses_flags_from_the_queue(client, flag):
    client.force_login(moderator())

    client.post(QUEUE, {"action": "dismiss", "_selected_action": [flag.pk]})

    flag.refresh_from_db()
    assert flag.status == Flag.Status.DISMISSED


def test_a_moderator_marks_cheating_with_a_note_from_the_flags_page(client, flag):
    mod = moderator()
    client.force_login(mod)

    client.post(
        reverse("admin:fairplay_flag_change", args=[flag.pk]),
        {"verdict": "cheating", "review_note": "fed every ten"},
    )

    flag.refresh_from_db()
    assert (flag.status, flag.note, flag.reviewed_by) == (
        Flag.Status.CHEATING,
        "fed every ten",
        mod,
    )


def test_a_flag_cannot_be_added_or_deleted_in_the_admin(client, flag):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))

    assert client.get(reverse("admin:fairplay_flag_add")).status_code == 403
    assert client.get(reverse("admin:fairplay_flag_delete", args=[flag.pk])).status_code == 403


@pytest.mark.parametrize(
    ("language", "title"), [("ru", "отметка честной игры"), ("uk", "позначка чесної гри")]
)
def test_the_queue_speaks_russian_and_ukrainian(client, flag, language, title):
    user = moderator()
    user.preferred_language = ""
    user.save(update_fields=["preferred_language"])
    client.force_login(user)

    page = client.get(QUEUE, HTTP_ACCEPT_LANGUAGE=language).content.decode()

    assert title in page


def test_a_moderator_voids_a_cheats_results_from_the_flags_page(client, flag):
    from fairplay.models import Voiding

    client.force_login(moderator())

    client.post(
        reverse("admin:fairplay_flag_change", args=[flag.pk]),
        {"verdict": "cheating", "review_note": "", "void_from": "2020-01-01 00:00:00"},
    )

    assert Voiding.objects.get(flag=flag).results


def test_staff_without_the_moderators_right_see_no_voidings(client, flag):
    client.force_login(UserFactory(is_staff=True))

    assert client.get(reverse("admin:fairplay_voiding_changelist")).status_code == 403
