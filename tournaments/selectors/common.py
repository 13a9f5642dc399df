"""What the tournament reads share: the status words, who counts as entered, the
messages a player sees after registering, withdrawing or checking in."""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from tournaments.models import Registration

ENTERED = (Registration.Status.REGISTERED, Registration.Status.CHECKED_IN)

MESSAGES = {
    "registered": gettext_lazy("You are registered."),
    "withdrawn": gettext_lazy("You have withdrawn."),
    "checked_in": gettext_lazy("You are checked in. Good luck!"),
}
