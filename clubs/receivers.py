"""What the clubs app does when other apps' rows change: a members-only club event takes
only the club's members, whichever way a registration is made (the player's own, the
organiser's walk-in, a withdrawn player coming back). The tournaments app knows nothing of
clubs; this check rides on its registration's save."""

from __future__ import annotations

from typing import Any

from django.db.models.signals import pre_save
from django.dispatch import receiver
from django.utils.translation import gettext as _

from clubs import selectors
from clubs.models import ClubEvent
from tournaments import errors as tournament_errors
from tournaments.models import Registration

ENTERED = (Registration.Status.REGISTERED, Registration.Status.CHECKED_IN)


@receiver(pre_save, sender=Registration, dispatch_uid="clubs.members_only")
def members_only(sender: Any, instance: Registration, **kwargs: Any) -> None:
    if instance.status not in ENTERED:
        return
    if not instance._state.adding:
        before = (
            Registration.objects.filter(pk=instance.pk).values_list("status", flat=True).first()
        )
        if before in ENTERED:
            return
    event = (
        ClubEvent.objects.filter(tournament_id=instance.tournament_id, members_only=True)
        .only("club_id")
        .first()
    )
    if event is None or selectors.is_member(user=instance.user, club_id=event.club_id):
        return
    raise tournament_errors.NotEligible(_("This event is for the club's members only."))
