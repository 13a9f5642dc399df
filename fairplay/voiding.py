"""Voiding a cheat's rated results, and undoing it (docs/fair-play.md). A moderator's
act only: the results are annulled through the ratings' own correction service
(``ratings.services.result_correct``), which recomputes the pool from each, so the
opponents get back what they lost and lose what they won against him, once: a
recomputation is deterministic, and a result already annulled is left alone."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from accounts.types import User
from fairplay.errors import FairPlayError
from fairplay.models import Flag, Voiding
from games.models import MatchResult

REASON = "fair play"


def _require_moderator(user: User) -> None:
    if not user.has_perm("fairplay.review_flag"):
        raise FairPlayError("not_moderator")


@transaction.atomic
def flag_void(*, flag_id: int, user: User, since: datetime) -> Voiding:
    """Annul every rated result of the flagged player (both players of a pair) from
    ``since`` on. The flag must be marked as cheating and not voided already."""
    from ratings.services import result_correct

    _require_moderator(user)
    flag = Flag.objects.select_for_update().filter(pk=flag_id).first()
    if flag is None:
        raise FairPlayError("no_flag")
    if flag.status != Flag.Status.CHEATING:
        raise FairPlayError("not_cheating")
    if flag.voidings.filter(undone_at__isnull=True).exists():
        raise FairPlayError("voided")
    cheats = [flag.user_id] + ([flag.partner_id] if flag.partner_id else [])
    results = (
        MatchResult.objects.filter(
            table__rated=True, finished_at__gte=since, table__seats__user_id__in=cheats
        )
        .filter(Q(correction__isnull=True) | Q(correction__annulled=False))
        .select_related("table")
        .distinct()
        .order_by("-finished_at", "-pk")
    )
    annulled = []
    # Latest first: each correction recomputes from its match on, so the last one (the
    # earliest match) settles the pool once over every voided match.
    for result in results:
        result_correct(result=result, annulled=True, reason=REASON, by=user)
        annulled.append(result.pk)
    return Voiding.objects.create(flag=flag, since=since, results=annulled, by=user)


@transaction.atomic
def voiding_undo(*, voiding_id: int, user: User) -> Voiding:
    """Restore the results a voiding annulled; the ratings are recomputed as they were."""
    from ratings.services import result_correct

    _require_moderator(user)
    voiding = Voiding.objects.select_for_update().filter(pk=voiding_id).first()
    if voiding is None or voiding.undone_at is not None:
        raise FairPlayError("not_voided")
    results = MatchResult.objects.filter(pk__in=voiding.results).select_related("table")
    for result in results.order_by("-finished_at", "-pk"):
        result_correct(result=result, annulled=False, reason=REASON, by=user)
    voiding.undone_at = timezone.now()
    voiding.save(update_fields=["undone_at"])
    return voiding
