"""The scheduler runs what it is given (games/scheduler.py): the games app registers the
service and the Celery task of a bot's turn when it is ready."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from games import scheduler, services, tasks


def test_the_app_registers_the_bot_turn_service_and_its_task() -> None:
    jobs = scheduler.jobs()
    assert (jobs.bot_turn, jobs.bot_turn_task) == (services.bot_play, tasks.bot_play_turn)


class Recorder:
    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []

    def __call__(self, *, table_id: int, version: int) -> object:
        self.calls.append(("run", (table_id, version)))
        return True

    def apply_async(self, *, args: tuple[int, int], countdown: float) -> object:
        self.calls.append(("send", (args, countdown)))
        return None


@pytest.fixture
def recorder() -> Iterator[Recorder]:
    registered = scheduler.jobs()
    recorder = Recorder()
    scheduler.register(bot_turn=recorder, bot_turn_task=recorder)
    yield recorder
    scheduler.register(bot_turn=registered.bot_turn, bot_turn_task=registered.bot_turn_task)


def test_a_bot_turn_runs_the_registered_callable(recorder: Recorder) -> None:
    scheduler.bot_turn_later(7, 3, 0)
    scheduler.run_pending()
    assert recorder.calls == [("run", (7, 3))]


def test_on_the_full_stack_a_bot_turn_is_sent_as_the_registered_task(
    recorder: Recorder, settings: Any
) -> None:
    settings.GAMES_SCHEDULER = "celery"
    scheduler.bot_turn_later(7, 3, 1.5)
    assert (recorder.calls, scheduler.pending()) == ([("send", ((7, 3), 1.5))], [])
