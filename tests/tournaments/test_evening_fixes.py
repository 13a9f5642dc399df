"""An amendment with invalid places stays on its form; a
registration during check-in is not checked in before it is registered; a Swiss event's
``ends_at`` is its expected end."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.factories import UserFactory
from tests.tournaments.helpers import START, TournamentFactory, entered, play_round, running, settle
from tournaments import services
from tournaments.models import Registration, Tournament

pytestmark = pytest.mark.django_db


def amend(organiser: Client, assignment: Any, places: str) -> Any:
    return organiser.post(
        reverse("admin:tournaments_assignment_change", args=[assignment.pk]),
        {"places": places, "reason": "typo", "seats-TOTAL_FORMS": "0",
         "seats-INITIAL_FORMS": "0", "seats-MIN_NUM_FORMS": "0", "seats-MAX_NUM_FORMS": "0"},
    )  # fmt: skip


def finished_table() -> Any:
    t, _users = running(3, rounds=1)
    play_round(t)
    settle(t, 30)
    return t.round_set.get().assignments.get()


def test_an_amendment_with_invalid_places_stays_on_the_form_with_its_error(
    organiser: Client,
) -> None:
    a = finished_table()
    before = [s.place for s in a.seats.order_by("number")]
    page = amend(organiser, a, "1, 1, 5")
    text = page.content.decode()
    assert page.status_code == 200  # the form again, not a redirect
    assert "Give each seat a place from 1 to 3" in text and 'name="places"' in text
    assert "changed successfully" not in text
    a.refresh_from_db()
    assert not a.amended and [s.place for s in a.seats.order_by("number")] == before


def test_a_valid_amendment_is_saved_and_says_so(organiser: Client) -> None:
    a = finished_table()
    page = amend(organiser, a, "3, 2, 1")
    assert page.status_code == 302
    a.refresh_from_db()
    assert a.amended and [s.place for s in a.seats.order_by("number")] == [3, 2, 1]


def test_registering_during_check_in_registers_before_it_checks_in() -> None:
    t = TournamentFactory(check_in_minutes=30)
    entered(t, 2)  # opens registration and check-in
    t.refresh_from_db()
    assert t.status == Tournament.Status.CHECK_IN
    moment = timezone.now() - timedelta(minutes=1)
    reg = services.registration_create(tournament=t, user=UserFactory(), now=moment)
    reg.refresh_from_db()
    assert reg.status == Registration.Status.CHECKED_IN
    assert reg.registered_at == moment and reg.checked_in_at is not None
    assert reg.checked_in_at >= reg.registered_at


def test_a_swiss_events_end_is_its_rounds_times_the_round_limit_and_break() -> None:
    t = TournamentFactory(rounds=3, round_minutes=40, break_seconds=120)
    assert t.ends_at == START + 3 * timedelta(minutes=42)


def test_a_swiss_without_a_round_limit_has_no_expected_end_in_the_api(client: Client) -> None:
    t = TournamentFactory(rounds=3, round_minutes=None)
    data = client.get(reverse("api-tournament", args=[t.pk])).json()
    assert data["ends_at"] is None and data["starts_at"] is not None


def test_the_api_gives_a_swiss_events_expected_end_not_its_start(client: Client) -> None:
    t = TournamentFactory(rounds=2, round_minutes=30, break_seconds=0)
    data = client.get(reverse("api-tournament", args=[t.pk])).json()
    assert data["ends_at"] != data["starts_at"]
    assert data["ends_at"].startswith((START + timedelta(minutes=60)).strftime("%Y-%m-%dT%H:%M"))
