"""A finished tournament after the retention task deleted its tables' logs and dealings
(games/retention.py): its results are amended from the records and standings alone."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings

from games import retention
from games import state as table_state
from games.models import Dealing, TableAction
from tests.games.conftest import _manual_scheduler  # noqa: F401  (autouse: bots wait for the test)
from tests.tournaments.helpers import play_round, running, settle
from tournaments import live, services
from tournaments.models import Assignment, Standing, Tournament

pytestmark = pytest.mark.django_db


def test_a_finished_tournament_result_is_amended_after_its_tables_logs_are_gone() -> None:
    t, _users = running(3, rounds=1)
    play_round(t)
    settle(t, 30)
    assert t.status == Tournament.Status.FINISHED
    a = Assignment.objects.get(round__tournament=t)
    table = a.table
    assert table is not None and table.finished_at is not None
    later = table.finished_at + timedelta(seconds=settings.GAMES_LOG_RETENTION_SECONDS + 1)
    assert retention.logs_archive(now=later).tables == 1
    assert not TableAction.objects.filter(table=table).exists()
    assert not Dealing.objects.filter(table=table).exists()
    table_state.clear()

    seats = list(a.seats.order_by("number"))
    winner = next(s for s in seats if s.place == 1)
    others = [s for s in seats if s is not winner]
    places = [3 if s is winner else 1 if s is others[0] else 2 for s in seats]
    services.assignment_amend(assignment=a, places=places, reason="scoring error")

    assert Standing.objects.get(tournament=t, user=winner.user).points == 0
    assert Standing.objects.get(tournament=t, position=1).points == 3
    table.refresh_from_db()
    assert live.table_progress(table).scores == list(table.result.final_scores)
