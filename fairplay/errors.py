"""The fair-play app's error: a stable code and a message for the moderator."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

_MESSAGES = {
    "not_moderator": _("Only fair-play moderators may review flags."),
    "bad_status": _("A flag is dismissed, warned or marked as cheating."),
    "no_flag": _("No such flag."),
    "decided": _("This flag has been reviewed already."),
    "not_cheating": _("Only a flag marked as cheating voids results."),
    "voided": _("This flag's results are voided already."),
    "not_voided": _("Nothing to undo: no such voiding in force."),
}


class FairPlayError(Exception):
    def __init__(self, code: str) -> None:
        super().__init__(str(_MESSAGES[code]))
        self.code = code
