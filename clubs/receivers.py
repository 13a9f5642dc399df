"""What the clubs app does when other apps' rows change: a members-only club event takes
only the club's members, whichever way a registration is made (the player's own, the
organiser's walk-in, a withdrawn player coming back); a club event's standings written (it
finished, a result was amended) store its seasons' tables again, after the commit, in a
task. The tournaments app knows nothing of clubs; these ride on its saves and signals."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models.signals import post_save, pre_save
from django.dispatch import receiver
from django.utils.translation import gettext as _

from clubs import selectors
from clubs.models import ClubEvent, Season
from tournaments import errors as tournament_errors
from tournaments import signals as tournament_signals
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


@receiver(tournament_signals.standings_written, dispatch_uid="clubs.season_tables")
def standings_written(sender: Any, *, tournament_id: int, **kwargs: Any) -> None:
    if not ClubEvent.objects.filter(tournament_id=tournament_id).exists():
        return
    from clubs.tasks import event_seasons_refresh

    transaction.on_commit(lambda: event_seasons_refresh.delay(tournament_id))


@receiver(post_save, sender=Season, dispatch_uid="clubs.season_changed")
def season_changed(sender: Any, instance: Season, **kwargs: Any) -> None:
    """A season started or changed (its dates, its scoring): its table is stored anew."""
    if instance.closed_at is not None:
        return
    from clubs.tasks import season_table_store

    pk = instance.pk
    transaction.on_commit(lambda: season_table_store.delay(pk))
