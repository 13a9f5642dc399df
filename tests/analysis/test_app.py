"""Asking for the analysis of a finished match, running it, its limits."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from analysis import core, services, tasks
from analysis.models import Analysis, PlayerAnalysis
from config.celery import app
from games.models import Seat
from tests.factories import UserFactory
from tests.games.helpers import committed

from .helpers import finished_table

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _small_budget(settings: Any) -> None:
    settings.ANALYSIS_SAMPLES = 2
    settings.ANALYSIS_PER_DAY = 2


def client_for(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def url(table: Any) -> str:
    return reverse("api-table-analysis", args=[table.pk])


def person(table: Any, number: int = 0) -> Any:
    return Seat.objects.get(table=table, number=number).user


def test_a_player_asks_and_reads_the_analysis_of_every_person_s_decision() -> None:
    table = finished_table(people=2)
    with committed():
        answer = client_for(person(table)).post(url(table))
    assert answer.status_code == 202, answer.json()

    data = client_for(person(table, 1)).get(url(table)).json()
    assert data["status"] == "done"
    assert data["done"] == data["total"] > 0
    result = data["result"]
    assert {d["seat"] for d in result["decisions"]} == {0, 1}
    assert [s["seat"] for s in result["summary"]] == [0, 1]
    # The same as the core's analysis at the stored seed and budget.
    expected = core.analyse(table.result.record, [0, 1], samples=2, seed=data["seed"])
    assert result == expected.to_dict()
    rows = PlayerAnalysis.objects.filter(analysis__table=table).order_by("seat")
    assert [(r.seat, r.user_id) for r in rows] == [(0, person(table).pk), (1, person(table, 1).pk)]


def test_the_analysis_of_a_match_still_playing_is_refused() -> None:
    table = finished_table(status="playing")
    answer = client_for(person(table)).post(url(table))
    assert answer.status_code == 409
    assert answer.json()["error"]["code"] == "not_finished"
    assert not Analysis.objects.exists()


def test_a_spectator_may_not_ask() -> None:
    table = finished_table()
    answer = client_for(UserFactory()).post(url(table))
    assert answer.status_code == 403
    assert answer.json()["error"]["code"] == "not_a_player"
    assert not Analysis.objects.exists()


def test_a_non_player_asking_for_a_match_still_playing_is_told_he_is_not_a_player() -> None:
    table = finished_table(status="playing")
    answer = client_for(UserFactory()).post(url(table))
    assert answer.json()["error"]["code"] == "not_a_player"


def test_an_analysis_is_stored_once_and_asked_again_returns_it() -> None:
    table = finished_table()
    user = person(table)
    with committed():
        client_for(user).post(url(table))
    first = Analysis.objects.get(table=table)
    again = client_for(user).post(url(table))
    assert again.status_code == 202
    assert again.json()["result"] == first.result
    assert Analysis.objects.count() == 1


def test_one_running_analysis_per_person() -> None:
    user = UserFactory()
    tables = [finished_table(), finished_table()]
    for t in tables:
        Seat.objects.filter(table=t, number=0).update(user=user)
    services.analysis_request(table_id=tables[0].pk, user=user)  # queued, not run
    answer = client_for(user).post(url(tables[1]))
    assert answer.status_code == 409
    assert answer.json()["error"]["code"] == "analysis_running"


def test_analyses_per_person_per_day_are_limited() -> None:
    user = UserFactory()
    tables = [finished_table() for _ in range(3)]
    for t in tables:
        Seat.objects.filter(table=t, number=0).update(user=user)
    for t in tables[:2]:
        with committed():
            assert client_for(user).post(url(t)).status_code == 202
    answer = client_for(user).post(url(tables[2]))
    assert answer.status_code == 429
    assert answer.json()["error"]["code"] == "analysis_limit"
    assert not Analysis.objects.filter(table=tables[2]).exists()


def test_a_cancelled_analysis_stops_and_is_never_half_marked() -> None:
    table = finished_table()
    user = person(table)
    analysis = services.analysis_request(table_id=table.pk, user=user)
    answer = client_for(user).delete(url(table))
    assert answer.status_code == 200
    assert answer.json()["status"] == "cancelled"
    assert services.analysis_run(analysis_id=analysis.pk) is False
    analysis.refresh_from_db()
    assert (analysis.status, analysis.result) == ("cancelled", None)
    assert not PlayerAnalysis.objects.exists()


def test_cancelling_while_it_runs_stops_it(monkeypatch: pytest.MonkeyPatch) -> None:
    table = finished_table()
    user = person(table)
    analysis = services.analysis_request(table_id=table.pk, user=user)
    real = core.analyse

    def cancel_midway(*args: Any, progress: Any, **kwargs: Any) -> Any:
        def tick(done: int, total: int) -> None:
            if done == 2:
                services.analysis_cancel(table_id=table.pk, user=user)
            progress(done, total)

        return real(*args, progress=tick, **kwargs)

    monkeypatch.setattr(core, "analyse", cancel_midway)
    assert services.analysis_run(analysis_id=analysis.pk) is False
    analysis.refresh_from_db()
    assert (analysis.status, analysis.result, analysis.done) == ("cancelled", None, 1)


def test_every_finished_decision_marks_the_analysis_as_progressing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = finished_table()
    analysis = services.analysis_request(table_id=table.pk, user=person(table))
    real = core.analyse
    seen: list[Any] = []

    def watched(*args: Any, progress: Any, **kwargs: Any) -> Any:
        def tick(done: int, total: int) -> None:
            before = Analysis.objects.get(pk=analysis.pk).progressed_at
            progress(done, total)
            seen.append((before, Analysis.objects.get(pk=analysis.pk).progressed_at))

        return real(*args, progress=tick, **kwargs)

    monkeypatch.setattr(core, "analyse", watched)
    assert services.analysis_run(analysis_id=analysis.pk) is True

    assert seen and all(before is not None and after > before for before, after in seen)


def test_a_running_analysis_with_no_decision_for_a_while_reads_as_stalled(settings: Any) -> None:
    """Its worker seems gone: the API (and so the page) says so, until progress resumes."""
    settings.ANALYSIS_STALL_SECONDS = 90
    table = finished_table()
    user = person(table)
    analysis = services.analysis_request(table_id=table.pk, user=user)
    quiet = timezone.now() - timedelta(seconds=91)
    Analysis.objects.filter(pk=analysis.pk).update(status="running", progressed_at=quiet)
    assert client_for(user).get(url(table)).json()["stalled"] is True

    Analysis.objects.filter(pk=analysis.pk).update(progressed_at=timezone.now())
    assert client_for(user).get(url(table)).json()["stalled"] is False


def test_a_failing_analysis_is_retried_then_marked_failed_without_a_result(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = finished_table()
    calls: list[int] = []

    def broken(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        raise RuntimeError("the search broke")

    monkeypatch.setattr(core, "analyse", broken)
    app.conf.task_eager_propagates = False  # as a worker runs it (tests/conftest.py restores it)
    analysis = services.analysis_request(table_id=table.pk, user=person(table))
    # Run as a worker would: the first run fails, and each retry runs it again.
    assert tasks.analysis_run.apply(args=[analysis.pk]).state == "FAILURE"
    analysis.refresh_from_db()
    assert (analysis.status, analysis.result, analysis.attempts) == ("failed", None, 3)
    assert "the search broke" in analysis.error
    assert len(calls) == 3 and not PlayerAnalysis.objects.exists()


def test_a_failed_analysis_may_be_asked_again() -> None:
    table = finished_table()
    user = person(table)
    analysis = services.analysis_request(table_id=table.pk, user=user)
    services.analysis_fail(analysis_id=analysis.pk, error="boom")
    with committed():
        again = services.analysis_request(table_id=table.pk, user=user)
    again.refresh_from_db()
    assert (again.pk, again.status) == (analysis.pk, "done")


def test_a_player_s_average_over_his_analysed_matches() -> None:
    user = UserFactory()
    tables = [finished_table(), finished_table()]
    for t in tables:
        Seat.objects.filter(table=t, number=0).update(user=user)
        with committed():
            services.analysis_request(table_id=t.pk, user=user, limits=False)
    data = APIClient().get(reverse("api-player-analysis", args=[user.username])).json()
    losses = [a.result["summary"][0]["mean_loss"] for a in Analysis.objects.order_by("pk")]
    assert data["matches"] == 2
    assert data["mean_loss"] == pytest.approx(sum(losses) / 2, abs=0.01)
    assert [m["table_id"] for m in data["matches_list"]] == [t.pk for t in tables]


def test_an_analysis_nobody_asked_for_reads_as_none() -> None:
    table = finished_table()
    answer = APIClient().get(url(table))
    assert answer.status_code == 200
    assert answer.json() == {"table_id": table.pk, "status": "none", "result": None}


def test_the_player_page_shows_his_analysed_matches_trend(client: Any) -> None:
    user = UserFactory()
    page = reverse("ratings:player", args=[user.username])
    assert 'id="analysis-trend"' not in client.get(page).content.decode()
    table = finished_table(users=[user])
    with committed():
        services.analysis_request(table_id=table.pk, user=user)
    html = client.get(page).content.decode()
    assert 'id="analysis-trend"' in html and "<polyline" in html
