"""Data that stays small (games/retention.py): a finished match's log rows and dealings
are deleted after the retention time, and everything that reads the match afterwards
reads its result's record."""

from __future__ import annotations

import re
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from games import retention, scheduler, selectors, services, tasks
from games import state as table_state
from games.models import Dealing, FinishedBy, MatchResult, Table, TableAction
from ratings.models import Rating
from tests.games.helpers import committed, human_turn, open_table, play_to_end, started_table

pytestmark = pytest.mark.django_db

CSRF = re.compile(rb'name="csrfmiddlewaretoken" value="[^"]*"')


def finished(*, rated: bool = False) -> Table:
    """A match played to its end through the services (a short one when unrated: a
    rated table plays its preset unchanged)."""
    options = {} if rated else {"options": {"target": 300}}
    table, _ = started_table(preset="simple", rated=rated, **options)
    play_to_end(table)
    table.refresh_from_db()
    return table


def after_retention(table: Table, settings: pytest.FixtureRequest) -> retention.Archived:
    """Run the archive task as it would run just after the table's retention time."""
    assert table.finished_at is not None
    later = table.finished_at + timedelta(seconds=settings.GAMES_LOG_RETENTION_SECONDS + 1)  # type: ignore[attr-defined]
    return retention.logs_archive(now=later)


def live_rows(table: Table) -> tuple[int, int]:
    return (
        TableAction.objects.filter(table=table).count(),
        Dealing.objects.filter(table=table).count(),
    )


def test_the_archive_deletes_a_finished_match_log_and_dealings_after_the_retention_time(
    settings,
) -> None:
    table = finished()
    actions, dealings = live_rows(table)

    done = after_retention(table, settings)

    table.refresh_from_db()
    assert (done.tables, done.actions, done.dealings) == (1, actions, dealings)
    assert live_rows(table) == (0, 0) and table.log_archived_at is not None
    assert MatchResult.objects.filter(table=table).exists()


def test_the_archive_leaves_a_match_inside_its_retention_time_alone(settings) -> None:
    table = finished()
    rows = live_rows(table)
    assert table.finished_at is not None

    done = retention.logs_archive(
        now=table.finished_at + timedelta(seconds=settings.GAMES_LOG_RETENTION_SECONDS - 1)
    )

    assert done.tables == 0 and live_rows(table) == rows


def test_the_archive_leaves_playing_and_abandoned_tables_alone(settings) -> None:
    # Abandoned: closed before it started, so it has no result (a match stopped in play
    # ends with one and is archived like any other).
    playing, _ = started_table(preset="simple", options={"target": 300})
    abandoned, _ = open_table(preset="simple", options={"target": 300})
    services.table_abandon(table=abandoned)
    abandoned.refresh_from_db()
    before = (live_rows(playing), live_rows(abandoned))

    done = after_retention(abandoned, settings)

    assert done.tables == 0 and (live_rows(playing), live_rows(abandoned)) == before


def test_with_a_time_budget_the_archive_goes_on_batch_after_batch(settings) -> None:
    tables = [finished() for _ in range(3)]
    assert tables[-1].finished_at is not None
    later = tables[-1].finished_at + timedelta(seconds=settings.GAMES_LOG_RETENTION_SECONDS + 1)

    one = retention.logs_archive(now=later, limit=1)
    rest = retention.logs_archive(now=later, limit=1, budget=60)

    assert (one.tables, rest.tables) == (1, 2)
    assert TableAction.objects.filter(table__in=tables).count() == 0


def test_a_second_run_of_the_archive_changes_nothing(settings) -> None:
    table = finished()
    after_retention(table, settings)
    table.refresh_from_db()
    stamp = table.log_archived_at

    done = after_retention(table, settings)

    table.refresh_from_db()
    assert (done.tables, done.skipped, table.log_archived_at) == (0, 0, stamp)


def test_a_record_that_does_not_hold_every_action_keeps_the_log(settings) -> None:
    table = finished()
    rows = live_rows(table)
    result = MatchResult.objects.get(table=table)
    result.record["deals"][-1]["actions"].pop()
    result.save(update_fields=["record"])

    done = after_retention(table, settings)

    table.refresh_from_db()
    assert (done.tables, done.skipped) == (0, 1)
    assert live_rows(table) == rows and table.log_archived_at is None


def test_a_record_whose_seeds_differ_from_the_dealings_keeps_the_log(settings) -> None:
    table = finished()
    rows = live_rows(table)
    result = MatchResult.objects.get(table=table)
    result.record["deals"][0]["dealing"]["server_seed"] = "00" * 32
    result.save(update_fields=["record"])

    done = after_retention(table, settings)

    assert done.skipped == 1 and live_rows(table) == rows


@pytest.mark.parametrize("seat", [0, None])
def test_an_archived_match_state_message_is_the_one_it_had_before(
    settings, seat: int | None
) -> None:
    table = finished()
    table_state.clear()
    user = table.seats.get(number=seat).user if seat is not None else None
    before = selectors.table_state_message(table_id=table.pk, user=user)

    after_retention(table, settings)
    table_state.clear()  # another process, or this one after a restart: rebuilt from the record
    after = selectors.table_state_message(table_id=table.pk, user=user)

    assert after == before and len(after["revealed"]) == len(after["sheet"]) > 0


def test_the_replay_page_and_its_deal_frames_are_the_same_after_the_archive(
    settings, client: Client
) -> None:
    table = finished()
    deals = MatchResult.objects.get(table=table).deals

    def pages() -> list[bytes]:
        urls = [
            reverse("games:replay", args=[table.pk]),
            reverse("api-table-record", args=[table.pk]),
        ]
        urls += [reverse("games:replay_deal", args=[table.pk, n]) for n in range(deals)]
        responses = [client.get(url) for url in urls]
        assert all(r.status_code == 200 for r in responses)
        # (the page's CSRF token is masked afresh on every request)
        return [CSRF.sub(b"", r.content) for r in responses]

    before = pages()
    after_retention(table, settings)
    table_state.clear()

    assert pages() == before


def test_recompute_ratings_after_the_archive_gives_the_ratings_it_gave_before(settings) -> None:
    tables = [finished(rated=True)]
    call_command("recompute_ratings", stdout=StringIO())
    before = sorted(Rating.objects.values_list("competitor_id", "players", "rating", "games"))

    for table in tables:
        after_retention(table, settings)
    assert TableAction.objects.filter(table__in=tables).count() == 0
    Rating.objects.update(rating=1, games=0)
    call_command("recompute_ratings", stdout=StringIO())

    assert (
        sorted(Rating.objects.values_list("competitor_id", "players", "rating", "games")) == before
    )


def test_the_periodic_task_archives_what_is_due(settings) -> None:
    settings.GAMES_LOG_RETENTION_SECONDS = 0
    table = finished()

    assert tasks.logs_archive.apply().get() == 1

    assert live_rows(table) == (0, 0)


def test_the_archive_task_is_on_the_beat_schedule(settings) -> None:
    entries = {e["task"]: e["schedule"] for e in settings.CELERY_BEAT_SCHEDULE.values()}

    assert entries["games.logs_archive"] == settings.GAMES_ARCHIVE_SWEEP_SECONDS


def test_a_match_cut_short_by_the_clock_is_archived_though_its_record_drops_the_deal_in_play(
    settings,
) -> None:
    # Its record ends at the last complete deal (the deal in play is dropped, its cards
    # never shown): the log rows beyond it go with the rest.
    table, _ = started_table(preset="classic")
    for _ in range(4):
        with committed():
            if scheduler.run_pending(limit=1):
                continue
        assert human_turn(table)
    with committed():
        services.table_finish_now(table=table, finished_by=FinishedBy.TIME)
    table.refresh_from_db()
    assert table.version > 0

    done = after_retention(table, settings)

    assert done.tables == 1 and live_rows(table) == (0, 0)
