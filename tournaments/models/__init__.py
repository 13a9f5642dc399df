"""Scheduled tournaments: the event, who entered, its rounds, the live tables of each
round with who sits where, and the standings.

- :class:`Tournament` — the event and its rules; ``status`` is its state machine
  (``tournaments.services``), moved by the Celery tick.
- :class:`Registration` — one per player and event.
- :class:`Round` — one per round (Swiss, knockout); an arena has one round that lasts
  the event.
- :class:`Assignment` — one live table of a round: who sits where (bots too), the
  ``games.Table`` once opened, and how it ended.
- :class:`AssignmentSeat` — one seat of an assignment, with the place and points it got:
  the facts the standings are computed from.
- :class:`Standing` — the standings as last computed (``tournaments.scoring``).
- :class:`DuplicateDealing` — a duplicate round's committed dealing secret, and
  :class:`EntrantSeed` the entrants' own seeds mixed into it (docs/duplicate.md).
- :class:`Announcement` and :class:`Notification` — what the event tells its entrants.

One module a part: ``event`` (the event and its registrations), ``rounds`` (rounds,
their tables and the standings), ``notices`` and ``duplicate``.
"""

from tournaments.models.duplicate import DuplicateDealing, EntrantSeed
from tournaments.models.event import Registration, Tournament, default_points
from tournaments.models.notices import Announcement, Notification
from tournaments.models.rounds import Assignment, AssignmentSeat, Round, Standing

__all__ = [
    "Announcement",
    "Assignment",
    "AssignmentSeat",
    "DuplicateDealing",
    "EntrantSeed",
    "Notification",
    "Registration",
    "Round",
    "Standing",
    "Tournament",
    "default_points",
]
