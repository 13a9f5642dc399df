"""Practice hints: "What would strong do?" only at an unrated table of one person against
bots."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from analysis.models import HintUse
from games import scheduler, services
from games.bots import make_bot
from games.engine import action_from_dict
from games.models import MatchResult
from tests.factories import UserFactory
from tests.games.helpers import committed, current, human_turn, play_to_end, started_table
from tests.tournaments.helpers import running
from tournaments.models import Assignment, Round

pytestmark = pytest.mark.django_db


def client_for(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def hint(table: Any, user: Any) -> Any:
    return client_for(user).post(reverse("api-table-hint", args=[table.pk]))


def to_seat(table: Any, seat: int) -> None:
    """Let the bots (and the person, as the basic bot would) play until ``seat`` acts."""
    for _ in range(200):
        if current(table).match.to_act == seat:
            return
        with committed():
            ran = scheduler.run_pending(limit=1)
        if not ran:
            human_turn(table)
    raise AssertionError("the seat never came to act")


def test_a_hint_at_an_unrated_table_against_bots_is_a_legal_action_and_is_kept() -> None:
    table, (me,) = started_table(humans=1, bots=2, preset="simple")
    to_seat(table, 0)
    answer = hint(table, me)
    assert answer.status_code == 200, answer.json()
    view = current(table).match.view(0)
    assert action_from_dict(answer.json()["action"]) in view.legal
    assert answer.json()["hints"] == 1
    assert HintUse.objects.filter(table=table, seat=0).count() == 1


def test_a_hint_at_a_rated_table_is_refused() -> None:
    table, (me,) = started_table(humans=1, bots=2, preset="simple", rated=True)
    to_seat(table, 0)
    answer = hint(table, me)
    assert answer.status_code == 403
    assert answer.json()["error"]["code"] == "hint_refused"
    assert not HintUse.objects.exists()


def test_a_hint_at_a_table_with_another_person_is_refused() -> None:
    table, (me, other) = started_table(humans=2, bots=1, preset="simple")
    seat = current(table).match.to_act
    asker = me if seat == 0 else other
    answer = hint(table, asker)
    assert answer.status_code == 403
    assert answer.json()["error"]["code"] == "hint_refused"


def test_a_spectator_gets_no_hint() -> None:
    table, _ = started_table(humans=1, bots=2, preset="simple")
    answer = hint(table, UserFactory())
    assert answer.status_code == 403
    assert not HintUse.objects.exists()


def test_no_hint_out_of_turn() -> None:
    table, (me,) = started_table(humans=1, bots=2, preset="simple")
    to_seat(table, 0)
    # Outside committed(): the bots' turns are never scheduled, so once the person has
    # acted (a declarer may act several times in a row) a bot is to act and stays so.
    while (state := current(table)).match.to_act == 0:
        action = make_bot("basic").decide(state.match.view(0))
        services.action_submit(
            table_id=table.pk, seat=0, action=action, expected_version=state.version
        )
    assert current(table).match.to_act != 0
    answer = hint(table, me)
    assert answer.status_code == 409
    assert answer.json()["error"]["code"] == "not_your_turn"


def test_the_record_notes_the_hints_used() -> None:
    table, (me,) = started_table(humans=1, bots=2, preset="simple", options={"target": 300})
    to_seat(table, 0)
    assert hint(table, me).status_code == 200
    assert hint(table, me).status_code == 200
    with committed():
        play_to_end(table)
    record = MatchResult.objects.get(table=table).record
    assert record["meta"]["hints"] == [{"seat": 0, "count": 2}]


def test_the_table_page_offers_a_hint_only_at_a_practice_table(client: Any) -> None:
    practice, (me,) = started_table(humans=1, bots=2, preset="simple")
    rated, (other,) = started_table(humans=1, bots=2, preset="simple", rated=True)
    client.force_login(me)
    assert (
        'id="hint-ask"' in client.get(reverse("games:table", args=[practice.pk])).content.decode()
    )
    client.force_login(other)
    assert (
        'id="hint-ask"' not in client.get(reverse("games:table", args=[rated.pk])).content.decode()
    )


def test_a_hint_at_a_tournament_table_is_refused() -> None:
    """One person against bots at an unrated table, as a practice table, but one of a
    tournament's round: no hints there."""
    tournament, _ = running(players=3, rated=False)
    table, (me,) = started_table(humans=1, bots=2, preset="simple")
    first_round = Round.objects.get(tournament=tournament, number=1)
    Assignment.objects.create(round=first_round, number=99, table=table)
    to_seat(table, 0)

    answer = hint(table, me)

    assert answer.status_code == 403
    assert answer.json()["error"]["code"] == "hint_refused"
    assert not HintUse.objects.exists()
