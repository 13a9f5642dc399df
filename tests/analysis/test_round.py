"""An organiser asks for the analysis of every table of a tournament's round."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from analysis.models import Analysis
from tests.factories import UserFactory
from tests.games.helpers import committed
from tests.tournaments.helpers import play_round, running

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _small_budget(settings: Any) -> None:
    settings.ANALYSIS_SAMPLES = 2


def ask(tournament: Any, user: Any) -> Any:
    client = APIClient()
    client.force_authenticate(user)
    return client.post(reverse("api-round-analysis", args=[tournament.pk, 1]))


def test_the_organiser_asks_for_every_table_of_a_round() -> None:
    organiser = UserFactory()
    tournament, _ = running(players=3, created_by=organiser)
    play_round(tournament)
    with committed():
        answer = ask(tournament, organiser)
    assert answer.status_code == 202, answer.json()
    assert len(answer.json()) == 1
    assert Analysis.objects.get().status == "done"


def test_a_player_may_not_ask_for_a_round() -> None:
    tournament, users = running(players=3, created_by=UserFactory())
    play_round(tournament)
    answer = ask(tournament, users[0])
    assert answer.status_code == 403
    assert answer.json()["error"]["code"] == "not_organiser"
    assert not Analysis.objects.exists()
