"""Writes of the ratings app: apply a finished match's result, recompute, correct.

Exactly once: every rating change row is unique per (competitor, result). Applying a result
inserts its rows and moves the ratings in one transaction; a second application (a retried
task, a second worker at the same moment) fails on that constraint and rolls back, so
nothing changes the second time.

Time order: within a pool (2, 3 or 4 players) results are applied serially (a PostgreSQL
advisory lock per pool; SQLite's write lock serialises everything already) and in the
order they finished. A result that arrives after a later one of the same players has been
applied triggers a recompute of the pool from its time on, so the ratings are always those
of processing every result in (finished_at, id) order.

One module a part: ``single`` (a match's result), ``duplicate`` (a duplicate round),
``recompute`` (replaying the pools), ``corrections``; ``step`` is the core step they share
under the pool's lock, ``common`` the constants, reports and competitors.
"""

from ratings.services.common import ADVISORY_KEY, CONFIG, Applied, Recomputed, competitors_for_seats
from ratings.services.corrections import result_correct
from ratings.services.duplicate import duplicate_round_record, rating_apply_duplicate_round
from ratings.services.recompute import ratings_recompute
from ratings.services.single import rating_apply_result

__all__ = [
    "ADVISORY_KEY",
    "CONFIG",
    "Applied",
    "Recomputed",
    "competitors_for_seats",
    "duplicate_round_record",
    "rating_apply_duplicate_round",
    "rating_apply_result",
    "ratings_recompute",
    "result_correct",
]
