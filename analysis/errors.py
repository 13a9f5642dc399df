"""The analysis's refusals (``core.errors``: a code, a status and a message each); each
is raised before anything changes."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from core import errors
from core.errors import ServiceError


class AnalysisError(ServiceError):
    pass


class NotFinished(AnalysisError):
    code = "not_finished"
    status = 409
    default_message = _(
        "The match is still being played: its analysis would show what the others hold."
    )


class NotAPlayer(AnalysisError):
    code = "not_a_player"
    status = 403
    default_message = _("Only the match's players may ask for its analysis.")


class NoPerson(AnalysisError):
    code = "no_person"
    status = 409
    default_message = _("Only bots played this match: there is nobody to analyse.")


class AlreadyRunning(AnalysisError):
    code = "analysis_running"
    status = 409
    default_message = _("An analysis you asked for is still running: wait for it or cancel it.")


class DailyLimit(AnalysisError):
    code = "analysis_limit"
    status = 429
    default_message = _("You have asked for as many analyses as you may today; try tomorrow.")


class NotRequested(AnalysisError):
    code = "no_analysis"
    status = 404
    default_message = _("Nobody has asked for this match's analysis yet.")


class NotCancellable(AnalysisError):
    code = "not_cancellable"
    status = 409
    default_message = _("Only a queued or running analysis you asked for can be cancelled.")


class Stopped(Exception):
    """Raised inside a running analysis that was cancelled, to stop it."""


class NoSuchPlayer(AnalysisError, errors.NotFound):
    default_message = _("No such player.")


class HintRefused(AnalysisError):
    code = "hint_refused"
    status = 403
    default_message = _(
        "Hints are given only at an unrated table of one person against bots, outside tournaments."
    )


class NotYourTurn(AnalysisError):
    code = "not_your_turn"
    status = 409
    default_message = _("It is not your turn: a hint is for your own decision.")


class NotOrganiser(AnalysisError):
    code = "not_organiser"
    status = 403
    default_message = _("Only the tournament's organiser may ask for a round's analyses.")
