"""A Swiss event's ``ends_at`` is its expected end, in the model and in the API."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.helpers import START, TournamentFactory

pytestmark = pytest.mark.django_db


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
