"""The scheduler runs what it is given (games/scheduler.py): the games app registers the
service and the Celery task of a bot's turn when it is ready."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from games import bot_queue, scheduler, services, tasks


def test_the_app_registers_the_bot_turn_service_and_its_task() -> None:
    jobs = scheduler.jobs()
    assert (jobs.bot_turn, jobs.bot_turn_task) == (services.bot_play, tasks.bot_turn_next)


class Recorder:
    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []

    def __call__(self, *, table_id: int, version: int) -> object:
        self.calls.append(("run", (table_id, version)))
        return True

    def apply_async(self, *, countdown: float) -> object:
        self.calls.append(("send", countdown))
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


def test_on_the_full_stack_a_bot_turn_is_filed_and_a_token_sent_with_its_pause(
    recorder: Recorder, settings: Any, fair_queue: Any
) -> None:
    settings.GAMES_SCHEDULER = "celery"
    scheduler.bot_turn_later(7, 3, 1.5, "u9")
    assert (recorder.calls, scheduler.pending()) == ([("send", 1.5)], [])
    assert fair_queue.zrange(bot_queue.JOBS_KEY.format(owner="u9"), 0, -1) == [b"7:3"]


# -- the in-process beat (the embedded default) -------------------------------------------


class Beat:
    """The in-process beat on a loop of its own, with one periodic task that waits for
    ``release`` before it returns."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, settings: Any) -> None:
        settings.CELERY_BEAT_SCHEDULE = {"sweep": {"task": "games.clocks_sweep", "schedule": 0.05}}
        self.runs: list[str] = []
        self.release = threading.Event()
        self.loop = asyncio.new_event_loop()
        monkeypatch.setattr(scheduler, "_run_task", self.run)
        monkeypatch.setattr(scheduler, "_loop", self.loop)
        monkeypatch.setattr(scheduler, "_due", {})
        monkeypatch.setattr(scheduler, "_beat_running", set())
        monkeypatch.setattr(scheduler, "_beat_pool", None)

    def run(self, task: str) -> None:
        self.runs.append(task)
        self.release.wait(10)

    def until(self, runs: int, seconds: float = 10) -> None:
        async def waiting() -> None:
            for _ in range(int(seconds / 0.01)):
                if len(self.runs) >= runs:
                    return
                await asyncio.sleep(0.01)

        self.loop.run_until_complete(waiting())

    def close(self) -> None:
        self.release.set()
        self.loop.run_until_complete(asyncio.sleep(0.1))
        self.loop.close()


@pytest.fixture
def beat(monkeypatch: pytest.MonkeyPatch, settings: Any) -> Iterator[Beat]:
    started = Beat(monkeypatch, settings)
    started.loop.call_soon(scheduler._tick)
    yield started
    started.close()


def test_a_periodic_task_is_not_started_again_while_its_last_run_goes_on(beat: Beat) -> None:
    beat.until(runs=1)
    beat.loop.run_until_complete(asyncio.sleep(0.5))  # ten periods
    assert beat.runs == ["games.clocks_sweep"]


def test_a_periodic_task_runs_again_once_its_last_run_has_finished(beat: Beat) -> None:
    beat.until(runs=1)
    beat.release.set()
    beat.until(runs=3)
    assert beat.runs == ["games.clocks_sweep"] * 3


def test_the_beat_runs_while_every_thread_of_the_bots_turns_is_busy(
    monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    beat = Beat(monkeypatch, settings)
    busy = threading.Event()
    beat.loop.set_default_executor(ThreadPoolExecutor(max_workers=1))
    beat.loop.run_in_executor(None, busy.wait, 10)  # a long bot's turn holds the one thread
    beat.loop.call_soon(scheduler._tick)
    try:
        beat.until(runs=1)
        assert beat.runs == ["games.clocks_sweep"]
    finally:
        busy.set()
        beat.close()
