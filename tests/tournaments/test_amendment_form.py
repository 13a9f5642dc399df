"""The organiser's amendment form in the admin site: invalid places stay on the form
with their error; valid ones are saved."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.helpers import play_round, running, settle

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
