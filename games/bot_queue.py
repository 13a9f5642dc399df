"""The bots' fair queue (full stack): bot turns served fairly across their owners.

In one FIFO queue of the bots' worker pool, one account with a dozen tables of master
bots would make every bot turn of everyone else wait behind its own
(``bench/bot_flood.py`` measures that wait). So a bot turn is
not a Celery task of its own but a job in Redis, filed under its *owner* (the
person who opened the table: all his tables share one owner) and due after the bots'
pause; each job sends a *token* task (``games.bot_turn_next``) to the ``bots`` queue with
that pause as its countdown. Whichever token a worker process runs, it plays the job
that is fairest to play now (:func:`pop`):

* among the owners with a job due, the one that has had the least of the pool's time so
  far (start-time fair queueing, as Linux's CFS and the fair queueing of network
  schedulers do it): every job taken charges its owner a nominal
  :data:`IN_FLIGHT_CHARGE` at once (so two free processes do not both take the same
  owner's jobs) and, once played, the time it really took (:func:`charge`); an owner who
  comes back after his queue ran empty starts level with the least-served owner, so
  nobody saves up credit by waiting (or is punished for an old burst);
* within one owner, his tables' jobs in the order they fell due (round the tables).

So an owner of many tables of master bots gets his share of the pool, and another
player's bot turn is played by the first process that comes free once it is due: it
waits for one turn in progress at most, never for a queue of them.

Tokens and jobs stay in step: every job sends one token, a token that plays a job
consumes it, and a token that finds jobs none of which is due yet (clocks, or a token
run early) sends itself again for the earliest one; only a token that finds no job at
all is dropped. One clock, Redis' ``TIME``, dates every job and decides what is due.
The clock sweep leaves a bot turn past its grace (``GAMES_BOT_GRACE``) to the queue
while it waits there, sending one more token for it (its own may have died with a
worker, :func:`rescue`): playing the waiting turns itself, one after another, the sweep
had played a flood's master turns ahead of everyone's. If Redis loses its data (an
outage: it keeps none here), jobs and tokens go together and the sweep plays the lost
turns after their grace, as it did before. The oldest due job's age is the bots' queue delay, which ``/healthz``
shows (:func:`queue_delay`).

The embedded default (``make run``) plays bot turns in its own threads and does not use
this queue.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import redis
from django.conf import settings

from core.redis_options import redis_options

PREFIX = "thousand:bots:"
# The owners with jobs, scored by the pool's time (seconds) each has had: a sorted set.
OWNERS_KEY = PREFIX + "owners"
# Every job waiting, scored by when it falls due (Redis TIME): the queue delay.
DUE_KEY = PREFIX + "due"
# One owner's jobs, scored by when each falls due.
JOBS_KEY = PREFIX + "jobs:{owner}"
# Set once the clock sweep sent a token for a job past its grace (:func:`rescue`).
RESCUED_KEY = PREFIX + "rescued:{job}"
# Charged to an owner when one of his jobs is taken, until its real time is known.
IN_FLIGHT_CHARGE = 0.5
# A token that finds nothing due comes back after at most this many seconds.
RETRY_CAP_SECONDS = 5.0

_PUSH = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1e6
local due = now + tonumber(ARGV[3])
if redis.call('ZCARD', KEYS[3]) == 0 then
  -- The owner's queue was empty: he starts where the turn in progress of the
  -- least-served other owner started (that owner's score less a turn's charge).
  local least = redis.call('ZRANGE', KEYS[1], 0, 1, 'WITHSCORES')
  local start = nil
  for i = 1, #least, 2 do
    if start == nil and least[i] ~= ARGV[1] then start = tonumber(least[i + 1]) - ARGV[4] end
  end
  local own = redis.call('ZSCORE', KEYS[1], ARGV[1])
  if start == nil then start = tonumber(own or 0) end
  if start < 0 then start = 0 end
  if not own or tonumber(own) > start then redis.call('ZADD', KEYS[1], start, ARGV[1]) end
end
redis.call('ZADD', KEYS[3], due, ARGV[2])
redis.call('ZADD', KEYS[2], due, ARGV[1] .. '|' .. ARGV[2])
return tostring(due)
"""

_POP = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1e6
local owners = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
local earliest = nil
local best, best_score, best_due, best_job = nil, nil, nil, nil
for i = 1, #owners, 2 do
  local owner, score = owners[i], tonumber(owners[i + 1])
  if best_score ~= nil and score > best_score then break end
  local head = redis.call('ZRANGE', ARGV[1] .. owner, 0, 0, 'WITHSCORES')
  if #head == 0 then
    redis.call('ZREM', KEYS[1], owner)
  else
    local due = tonumber(head[2])
    if due <= now then
      -- The least-served owner with a job due; among equals, the job due first.
      if best == nil or due < best_due then
        best, best_score, best_due, best_job = owner, score, due, head[1]
      end
    elseif earliest == nil or due < earliest then
      earliest = due
    end
  end
end
if best ~= nil then
  redis.call('ZREM', ARGV[1] .. best, best_job)
  redis.call('ZREM', KEYS[2], best .. '|' .. best_job)
  redis.call('ZINCRBY', KEYS[1], ARGV[2], best)
  return {'job', best, best_job, tostring(now - best_due)}
end
if earliest == nil then return {'empty'} end
return {'later', tostring(earliest - now)}
"""

_RESCUE = """
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return {0, 0} end
if redis.call('SET', KEYS[2], '1', 'NX', 'EX', 600) then return {1, 1} end
return {1, 0}
"""

_CHARGE = """
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  redis.call('ZINCRBY', KEYS[1], ARGV[2], ARGV[1])
end
return 1
"""


@dataclass(frozen=True)
class Job:
    owner: str
    table_id: int
    version: int
    waited: float  # seconds past its due time when taken


@dataclass(frozen=True)
class Later:
    seconds: float  # until the earliest job falls due


@functools.cache
def _client(url: str) -> redis.Redis:
    return redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2, **redis_options())


def client() -> redis.Redis:
    return _client(str(settings.CELERY_BROKER_URL))


def owner_of(*, created_by_id: int | None, table_id: int) -> str:
    """Whose share a table's bot turns count against: its creator's (all the tables a
    person opened share one), or the table's own when nobody created it."""
    return f"u{created_by_id}" if created_by_id is not None else f"t{table_id}"


def push(*, owner: str, table_id: int, version: int, delay: float) -> float:
    """File a bot turn for ``owner``, due in ``delay`` seconds; returns its due time."""
    keys = [OWNERS_KEY, DUE_KEY, JOBS_KEY.format(owner=owner)]
    due = client().eval(
        _PUSH, len(keys), *keys, owner, f"{table_id}:{version}", delay, IN_FLIGHT_CHARGE
    )
    return float(due)


def pop() -> Job | Later | None:
    """Take the fairest job that is due (see the module's docstring); ``Later`` when jobs
    wait but none is due yet, None when none waits."""
    keys = [OWNERS_KEY, DUE_KEY]
    reply: list[Any] = client().eval(
        _POP, len(keys), *keys, JOBS_KEY.format(owner=""), IN_FLIGHT_CHARGE
    )
    kind = _text(reply[0])
    if kind == "empty":
        return None
    if kind == "later":
        return Later(seconds=max(0.0, float(reply[1])))
    table_id, _, version = _text(reply[2]).partition(":")
    return Job(
        owner=_text(reply[1]), table_id=int(table_id), version=int(version), waited=float(reply[3])
    )


def charge(*, owner: str, seconds: float) -> None:
    """``owner``'s job took ``seconds`` of a worker process (it was charged
    :data:`IN_FLIGHT_CHARGE` when taken). An owner gone from the queue is not brought back."""
    client().eval(_CHARGE, 1, OWNERS_KEY, owner, seconds - IN_FLIGHT_CHARGE)


def rescue(*, owner: str, table_id: int, version: int) -> tuple[bool, bool]:
    """For the clock sweep, at a bot turn past its grace: (whether the turn still waits in
    the queue, whether a token should be sent for it now: once per job, in case its token
    was lost with a worker). A turn that waits is the queue's to play, fairly; one that
    does not (lost with Redis' data, or taken by a process that died) is the sweep's.
    With Redis away: (False, False)."""
    try:
        reply = client().eval(
            _RESCUE, 2, DUE_KEY, RESCUED_KEY.format(job=f"{table_id}:{version}"),
            f"{owner}|{table_id}:{version}",
        )  # fmt: skip
    except redis.RedisError:
        return False, False
    return bool(reply[0]), bool(reply[1])


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def queue_delay(oldest_due: float | None, now: float) -> float:
    """How long the oldest waiting job has been due (0 when none is due)."""
    if oldest_due is None:
        return 0.0
    return round(max(0.0, now - oldest_due), 2)
