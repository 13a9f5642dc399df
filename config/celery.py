"""The Celery app: `celery -A config worker` and `celery -A config beat`.

Queues: bot turns and the clock sweep go to ``bots`` (short, frequent, latency matters);
results, ratings and tournaments to ``results``; the analysis of finished matches to
``analysis`` (long, CPU-bound); anything else to ``celery``. One worker
may consume all three (``scripts/stack``), or a pool per queue (``docker-compose.yml``).

The worker's consumer is :class:`Consumer`: Celery 5.7 with kombu 5.7 on Redis died
for good on a broker outage while it held unacknowledged messages (see its docstring).
"""

from __future__ import annotations

import contextlib
import logging
import os
import time
from typing import Any

from celery import Celery, signals
from celery.utils.threads import bound_open_broker_sockets  # type: ignore[attr-defined]  # new in 5.7
from celery.worker.consumer import Consumer as CeleryConsumer

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

log = logging.getLogger(__name__)

# The worker pools by queue: CELERY_TASK_ROUTES, CELERY_TASK_QUEUES and
# CELERY_TASK_DEFAULT_QUEUE in config/settings.py route the tasks to these (settings, so
# that a test can put everything on a queue of its own); docker-compose.yml and
# scripts/stack run a worker pool for bots, one for the analysis and one for the rest.
QUEUES = ("bots", "results", "celery", "analysis", "mail")
# Seconds the socket may take while the consumer closes a broken broker connection.
CLOSE_SOCKET_TIMEOUT = 5.0
# The periodic tasks whose last run /healthz reads (config/health.py): the Redis key of
# each, written by the worker that ran it.
HEARTBEAT_KEY = "thousand:heartbeat:{name}"


class Consumer(CeleryConsumer):
    """Celery's consumer, closing a lost broker connection in an order that cannot crash.

    Celery 5.7.0's ``on_connection_error_after_connected`` first calls
    ``connection.collect()``, which detaches the kombu transport from its connection
    (``transport.client = None``), then ``connection.close()``, which closes the default
    channel. Closing a Redis channel restores the unacknowledged messages (a worker holds
    some whenever a task with a countdown or ETA waits in it, as every bot turn does);
    that needs a new connection pool, built from ``transport.client.hostname``:
    ``AttributeError: 'NoneType' object has no attribute 'hostname'``. It is not a
    connection error, so nothing catches it: "Unrecoverable error", and the worker exits.

    Here the connection is closed first, while the transport still knows its broker: the
    channel restores its messages if the broker answers (a blip), and leaves them to the
    visibility timeout if not (``CELERY_BROKER_TRANSPORT_OPTIONS``). Celery's own clean-up
    then finds a closed connection, which it handles.

    The same ``hostname`` error came a second way: a task received before the
    loss and still running (or cancelled by Celery at the loss) is acknowledged, or
    rejected back to its queue, when it ends, after the reconnect. That goes through the
    message's own channel, of the old transport, which builds a new connection pool from
    ``transport.client``: gone since the close. So the old transport gets its connection's
    settings back once the clean-up is done (the kombu ``Connection`` keeps them after its
    close): a late ack or reject reaches the same broker on a connection of its own, or
    fails with a connection error, which Celery logs ("Couldn't ack") and survives.
    """

    def on_connection_error_after_connected(self, exc: Exception) -> None:
        connection = self.connection
        transport = getattr(connection, "_transport", None)
        if connection is not None:
            bound_open_broker_sockets(connection, CLOSE_SOCKET_TIMEOUT)
            try:
                connection.close()
            except Exception:  # whatever it is, the reconnect below must still run
                log.warning("closing the lost broker connection failed", exc_info=True)
        try:
            super().on_connection_error_after_connected(exc)
        finally:
            if transport is not None:
                # For the late acks and rejects of messages received on it (see above).
                transport.client = connection


app = Celery("thousand")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.conf.update(
    worker_consumer=f"{__name__}:Consumer",
    # Keep trying the broker for ever after a loss (the default, said here on purpose).
    broker_connection_retry=True,
    broker_connection_max_retries=None,
    # A task with acks_late still running when the broker connection is lost is
    # redelivered once the broker is back: stop the running copy rather than let two
    # run (every task here is safe to run again). Celery 6's default.
    worker_cancel_long_running_tasks_on_connection_loss=True,
)
app.autodiscover_tasks()


@app.task(name="config.ping", ignore_result=False)
def ping(payload: str) -> dict[str, object]:
    """Echo ``payload`` with the worker's pid: used by tests and to probe a worker."""
    return {"pong": payload, "pid": os.getpid()}


_heartbeat_client: Any = None


# The periodic tasks play depends on: the clock sweep (timeouts, lost bot turns) and the
# tournaments' tick (rounds, time limits). The log archive (every minute) is housekeeping:
# a late run only delays it, so /healthz does not wait for its first run.
PLAY_TASKS = ("games.clocks_sweep", "tournaments.tick")
# Every other periodic task, named so that a new one is placed in one list or the other
# (tests/test_periodic_tasks.py holds the two lists to CELERY_BEAT_SCHEDULE).
HOUSEKEEPING_TASKS = (
    "games.logs_archive",
    "social.chat_expire",
    "social.challenges_expire",
    "social.reminders_send",
    "accounts.closed_erase",
    "clubs.series_materialize",
)


def heartbeat_names() -> list[str]:
    """The periodic tasks (``CELERY_BEAT_SCHEDULE``) whose runs are recorded and that
    /healthz checks: those play depends on."""
    schedule: dict[str, dict[str, Any]] = app.conf.beat_schedule or {}
    return sorted({entry["task"] for entry in schedule.values()} & set(PLAY_TASKS))


@signals.task_postrun.connect
def _record_heartbeat(sender: Any = None, **_: Any) -> None:
    """A periodic task ran: note the time in Redis, where /healthz reads it."""
    global _heartbeat_client
    name = getattr(sender, "name", None)
    url = str(app.conf.broker_url or "")
    if name not in heartbeat_names() or app.conf.task_always_eager or not url.startswith("redis"):
        return
    import redis

    with contextlib.suppress(redis.RedisError):
        if _heartbeat_client is None:
            _heartbeat_client = redis.Redis.from_url(
                url, socket_timeout=1, socket_connect_timeout=1
            )
        _heartbeat_client.set(HEARTBEAT_KEY.format(name=name), repr(time.time()), ex=3600)
