"""Writes on tournaments: the organiser's actions (``organiser``), the players'
(``registration``), the state machine the Celery tick drives (``machine``) and the
standings (``standings``); ``common`` holds what they share. Everything public is
re-exported here (``seating`` seats a round for the machine and the organiser), so callers write ``services.tournament_start(…)``. Keyword-only and
atomic; errors (``tournaments.errors``) are raised before anything changes.

The state machine::

    draft → scheduled → registration → check_in → running → finished
                 (any of them, before finished)      ↘ cancelled

and, while running, each round (Swiss, knockout)::

    seated → playing → finished        (an arena: one round, playing for its duration)

with each table of a round (:class:`Assignment`)::

    pending → playing → (stopping →) finished

Every step is idempotent and safe when two ticks overlap or a worker dies half way:

- a step holds the tournament's row lock (the tick skips a tournament another worker is
  stepping), and is one transaction: a worker killed in it leaves nothing behind;
- live tables are opened one assignment at a time, each under its row lock with
  ``skip_locked`` (two workers share the work; a table is opened once, its id saved in
  the same transaction);
- a round's and a table's number are unique (a round cannot be seated twice);
- a result is recorded once per assignment (the assignment's row lock and status), and
  the tick also sweeps for results whose task was lost;
- standings are recomputed from the recorded facts, never added to.
"""

from __future__ import annotations

from tournaments.services.common import (
    ARENA_BOT_AFTER,
    CHECK_IN_HORIZON,
    OPEN_BATCH,
    STOP_GRACE,
)
from tournaments.services.duplicate import (
    dealing_server_seed,
    duplicate_commit,
    duplicate_rate_round,
    duplicate_reveal,
    duplicate_seal,
    entrant_seed_give,
)
from tournaments.services.machine import (
    Step,
    assignment_record_result,
    round_close,
    round_open_tables,
    tournament_finish,
    tournament_step,
    tournaments_due,
)
from tournaments.services.organiser import (
    assignment_amend,
    assignment_amend_check,
    registration_disqualify,
    registration_disqualify_check,
    registration_reinstate,
    round_reseat,
    tournament_cancel,
    tournament_close_registration,
    tournament_create,
    tournament_open_check_in,
    tournament_open_registration,
    tournament_pause,
    tournament_schedule,
    tournament_start,
)
from tournaments.services.registration import (
    registration_add_walk_in,
    registration_admin_check_in,
    registration_check_in,
    registration_create,
    registration_withdraw,
)
from tournaments.services.seating import seed_key
from tournaments.services.standings import standings_compute

__all__ = [
    "ARENA_BOT_AFTER",
    "CHECK_IN_HORIZON",
    "OPEN_BATCH",
    "STOP_GRACE",
    "Step",
    "assignment_amend",
    "assignment_amend_check",
    "assignment_record_result",
    "dealing_server_seed",
    "duplicate_commit",
    "duplicate_rate_round",
    "duplicate_reveal",
    "duplicate_seal",
    "entrant_seed_give",
    "registration_add_walk_in",
    "registration_admin_check_in",
    "registration_check_in",
    "registration_create",
    "registration_disqualify",
    "registration_disqualify_check",
    "registration_reinstate",
    "registration_withdraw",
    "round_close",
    "round_open_tables",
    "round_reseat",
    "seed_key",
    "standings_compute",
    "tournament_cancel",
    "tournament_close_registration",
    "tournament_create",
    "tournament_finish",
    "tournament_open_check_in",
    "tournament_open_registration",
    "tournament_pause",
    "tournament_schedule",
    "tournament_start",
    "tournament_step",
    "tournaments_due",
]
