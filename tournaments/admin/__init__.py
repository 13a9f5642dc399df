"""Admin of the tournaments: organisers create and schedule events here, and step in
when needed (open or close registration early, start now, pause, cancel, disqualify,
reseat a round that has not started, amend a result). The actions call the services.

In parts, each registering its models' pages on import (Django imports this package):
``tournament``, ``registration`` (with announcements), ``rounds`` (with assignments and
standings), and ``common``.
"""

from __future__ import annotations

from tournaments.admin.registration import AnnouncementAdmin, RegistrationAdmin
from tournaments.admin.rounds import AssignmentAdmin, RoundAdmin, StandingAdmin
from tournaments.admin.tournament import TournamentAdmin

__all__ = [
    "AnnouncementAdmin",
    "AssignmentAdmin",
    "RegistrationAdmin",
    "RoundAdmin",
    "StandingAdmin",
    "TournamentAdmin",
]
