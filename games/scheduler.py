"""What runs later: a bot's turn after its pause, and the sweep of the move clocks.

Three modes (setting ``GAMES_SCHEDULER``):

* ``celery`` (full stack): a bot's turn waits in the bots' fair queue (in Redis,
  :mod:`games.bot_queue`) and a token task with a countdown plays it; Celery beat
  runs :func:`games.tasks.clocks_sweep` every second. Deadlines live in the database,
  so a restarted worker loses nothing: the sweep finds every expired clock.
* ``loop`` (the embedded default, ``make run``): the same calls run on the ASGI server's
  event loop, each in a worker thread, with their pauses; a small in-process beat runs
  every entry of ``CELERY_BEAT_SCHEDULE`` (the clock sweep every second, the tournaments'
  tick) at its interval. Never inside the request that triggered them, never by
  recursion.
* ``manual`` (tests): jobs wait in a list until the test runs them with
  :func:`run_pending`, one after another.

The scheduler runs what it is given and imports neither the services nor the tasks (they
schedule through it: an import-linter contract holds it). What a bot's turn runs is
registered once, when the app is ready (``GamesConfig.ready`` calls :func:`register`):
the service that plays it in this process (``loop``, ``manual``) and the Celery task that
plays it on a worker (``celery``).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import threading
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Protocol

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections

from games import bot_queue

log = logging.getLogger(__name__)

_loop: asyncio.AbstractEventLoop | None = None
_loop_lock = threading.Lock()
_pending: list[tuple[Callable[..., Any], tuple[Any, ...]]] = []


def mode() -> str:
    return str(settings.GAMES_SCHEDULER)


class BotTurn(Protocol):
    """Plays the bot's turn at a table if it is still at ``version`` (the service)."""

    def __call__(self, *, table_id: int, version: int) -> object: ...


class BotTurnTask(Protocol):
    """The Celery task that plays the fairest bot turn due on a worker (a token of the
    bots' fair queue, :mod:`games.bot_queue`)."""

    def apply_async(self, *, countdown: float) -> object: ...


@dataclass(frozen=True)
class Jobs:
    """What the scheduler runs (:func:`register`)."""

    bot_turn: BotTurn
    bot_turn_task: BotTurnTask


_jobs: Jobs | None = None


def register(*, bot_turn: BotTurn, bot_turn_task: BotTurnTask) -> None:
    """Tell the scheduler what a bot's turn runs: ``bot_turn`` in this process,
    ``bot_turn_task`` on a Celery worker. Called when the games app is ready."""
    global _jobs
    _jobs = Jobs(bot_turn=bot_turn, bot_turn_task=bot_turn_task)


def jobs() -> Jobs:
    if _jobs is None:
        raise RuntimeError(
            "games.scheduler: nothing registered to run (GamesConfig.ready registers it)"
        )
    return _jobs


def bot_turn_later(table_id: int, version: int, delay: float, owner: str | None = None) -> None:
    """Play the bot's turn at ``table_id`` if the table is still at ``version``. On the full
    stack the turn waits in the bots' fair queue under ``owner`` (by default the table's
    own), and a token task plays the fairest turn due (:mod:`games.bot_queue`)."""
    if mode() == "celery":
        send = functools.partial(_file_bot_turn, owner or f"t{table_id}", table_id, version, delay)
        try:
            # On a server's event loop (core.realtime.after_sent): the broker call blocks.
            future = asyncio.get_running_loop().run_in_executor(None, send)
            # A lost turn is played by the clock sweep (the deadline's grace); say why.
            future.add_done_callback(_log_failure)
        except RuntimeError:
            send()
        return
    later(functools.partial(jobs().bot_turn, table_id=table_id, version=version), (), delay)


def _eager() -> bool:
    """Celery runs each task in the caller's stack (``task_always_eager``): a countdown
    means nothing there, so a token cannot wait for a turn to fall due."""
    app = getattr(jobs().bot_turn_task, "app", None)
    return bool(app is not None and app.conf.task_always_eager)


def _file_bot_turn(owner: str, table_id: int, version: int, delay: float) -> None:
    if _eager():
        delay = 0.0  # due now: the token runs at once and plays it
    bot_queue.push(owner=owner, table_id=table_id, version=version, delay=delay)
    jobs().bot_turn_task.apply_async(countdown=delay)


def bot_token_later(delay: float) -> None:
    """Send a token of the bots' fair queue again: it found turns waiting, none due yet.
    Not with eager Celery: the token would run at once, find nothing due and send itself
    again without end (each turn filed there is due at once and has its own token)."""
    if _eager():
        return
    jobs().bot_turn_task.apply_async(countdown=delay)


def _log_failure(future: Any) -> None:
    if not future.cancelled() and future.exception() is not None:
        log.error("scheduling a bot's turn failed", exc_info=future.exception())


def later(fn: Callable[..., Any], args: tuple[Any, ...], delay: float) -> None:
    if mode() == "manual":
        _pending.append((fn, args))
        return
    loop = _event_loop()
    loop.call_soon_threadsafe(loop.call_later, delay, _spawn, fn, args)


def run_pending(limit: int = 100_000) -> int:
    """Tests (manual mode): run the waiting jobs, and those they add, in order."""
    done = 0
    while _pending and done < limit:
        fn, args = _pending.pop(0)
        fn(*args)
        done += 1
    return done


def discard_pending() -> None:
    _pending.clear()


def pending() -> list[tuple[Callable[..., Any], tuple[Any, ...]]]:
    return list(_pending)


# -- the embedded default: the ASGI server's own event loop --------------------------


def attach(loop: asyncio.AbstractEventLoop) -> None:
    """Run jobs on the server's loop (called at ASGI start-up) and start the ticker,
    which sweeps the clocks every second."""
    global _loop
    with _loop_lock:
        _loop = loop
    if mode() == "loop":
        loop.call_soon_threadsafe(_tick)


def _event_loop() -> asyncio.AbstractEventLoop:
    """The server's loop; outside a server (a shell, a management command) a private
    loop in a daemon thread."""
    global _loop
    with _loop_lock:
        if _loop is None or _loop.is_closed():
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="games-scheduler", daemon=True).start()
            _loop = loop
            loop.call_soon_threadsafe(_tick)
        return _loop


_due: dict[str, float] = {}
_beat_running: set[str] = set()  # the periodic tasks with a run not finished yet
_beat_pool: ThreadPoolExecutor | None = None


def _beat_executor() -> ThreadPoolExecutor:
    """The in-process beat's own threads. On the threads that run bots' turns and the
    consumers' database calls, a busy server (many tables of bots) kept the clock sweep
    and the tournaments' tick waiting behind them for minutes, and a tick missed was
    a round started late; each periodic task needs one thread at most (below)."""
    global _beat_pool
    with _loop_lock:
        if _beat_pool is None:
            schedule: dict[str, Any] = settings.CELERY_BEAT_SCHEDULE
            _beat_pool = ThreadPoolExecutor(
                max_workers=max(1, len(schedule)), thread_name_prefix="games-beat"
            )
        return _beat_pool


def _tick() -> None:
    """The in-process beat: start each periodic task whose time has come (in a thread of
    its own), then look again in a little while. A task whose last run has not
    finished is not started again: its runs never pile up behind a slow one (the next
    run does what the missed ones would have: a sweep finds every clock past its time)."""
    loop = _loop
    if loop is None:
        return
    now = loop.time()
    schedule: dict[str, dict[str, Any]] = settings.CELERY_BEAT_SCHEDULE
    for name, entry in schedule.items():
        if _due.get(name, 0.0) <= now:
            _due[name] = now + float(entry["schedule"])
            if name not in _beat_running:
                _beat_running.add(name)
                _keep(_run_periodic(name, entry["task"]))
    loop.call_later(0.25, _tick)


async def _run_periodic(name: str, task: str) -> None:
    try:
        await sync_to_async(_call, thread_sensitive=False, executor=_beat_executor())(
            _run_task, (task,)
        )
    except Exception:
        log.exception("the periodic task %s failed", task)
    finally:
        _beat_running.discard(name)


_discovered = False
_discovery_lock = threading.Lock()


def _run_task(name: str) -> None:
    global _discovered
    from celery import current_app as app  # the project's (config.celery), set as current

    with _discovery_lock:
        if not _discovered:
            # The app discovers the apps' task modules lazily (on a worker's start-up);
            # the in-process beat may run before anything imported them.
            app.loader.import_default_modules()
            app.autodiscover_tasks(force=True)
            _discovered = True
        task = app.tasks[name]
    task.apply()


_running: set[asyncio.Future[None]] = set()  # the loop keeps only weak references


def _spawn(fn: Callable[..., Any], args: tuple[Any, ...]) -> None:
    _keep(_run(fn, args))


def _keep(coroutine: Coroutine[Any, Any, None]) -> None:
    """Run ``coroutine`` on the running loop, holding its task until it ends."""
    task = asyncio.ensure_future(coroutine)
    _running.add(task)
    task.add_done_callback(_running.discard)


async def _run(fn: Callable[..., Any], args: tuple[Any, ...]) -> None:
    try:
        await sync_to_async(_call, thread_sensitive=False)(fn, args)
    except Exception:
        log.exception("scheduled %s%r failed", getattr(fn, "__name__", fn), args)


def _call(fn: Callable[..., Any], args: tuple[Any, ...]) -> None:
    try:
        fn(*args)
    finally:
        close_old_connections()
