"""Closing a cheat's entries in events not over, and reinstating them (docs/fair-play.md).
Marking a flag as cheating disqualifies the player (both players of a pair) in every
event he is entered in that has not finished, through the tournaments' own service
(``registration_disqualify``: he resigns at a table in play there, is seated no more,
and is told in his notifications); each entry closed once (``EntryClosure``).
Unmarking reinstates each (``registration_reinstate``) unless the event was cancelled
meanwhile; what cannot be given back is said on the closure: a table resigned stays
resigned, the rounds missed stay missed."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.types import User
from fairplay.models import EntryClosure, Flag
from games.models import Table

REASON = "fair play"


def _cheats(flag: Flag) -> list[int]:
    return [flag.user_id] + ([flag.partner_id] if flag.partner_id else [])


@transaction.atomic
def flag_entries_close(*, flag: Flag, by: User) -> list[EntryClosure]:
    """Disqualify the flag's player(s) in every event not over where they are entered;
    an entry this flag closed already is left alone."""
    from tournaments.models import Registration, Tournament
    from tournaments.services import registration_disqualify

    regs = (
        Registration.objects.filter(
            user_id__in=_cheats(flag),
            status__in=(Registration.Status.REGISTERED, Registration.Status.CHECKED_IN),
            tournament__status__in=Tournament.ACTIVE,
        )
        .exclude(pk__in=flag.closures.filter(undone_at__isnull=True).values("registration_id"))
        .order_by("pk")
    )
    closed = []
    for reg in regs:
        tables = list(
            Table.objects.filter(
                status=Table.Status.PLAYING,
                seats__user_id=reg.user_id,
                tournament_assignment__round__tournament_id=reg.tournament_id,
            ).values_list("pk", flat=True)
        )
        before = reg.status
        registration_disqualify(registration=reg, reason=REASON, by=by)
        closed.append(
            EntryClosure.objects.create(
                flag=flag, registration=reg, status_before=before, tables=tables
            )
        )
    return closed


@transaction.atomic
def flag_entries_reopen(*, flag: Flag) -> list[EntryClosure]:
    """Reinstate the entries the flag closed, where the event still allows it."""
    from tournaments.services import registration_reinstate

    done = []
    for closure in flag.closures.select_for_update().filter(undone_at__isnull=True):
        if registration_reinstate(registration=closure.registration, status=closure.status_before):
            kept = ""
        else:
            kept = _("the event was cancelled or the entry changed meanwhile")
        if closure.tables:
            kept = (kept + "; " if kept else "") + _("the tables he resigned stay resigned")
        closure.undone_at = timezone.now()
        closure.kept = kept[:200]
        closure.save(update_fields=["undone_at", "kept"])
        done.append(closure)
    return done
