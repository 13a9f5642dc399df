"""Practice hints: at an unrated table of one person against bots, "What would
strong do?" answers with the strong bot's choice for the person's current decision, from
his seat's view only. Refused at rated tables, tournament tables, tables with another
person, and to spectators; every hint is kept and the match's record notes them."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Count

from accounts.types import User
from analysis import errors as err
from games import selectors as table_selectors
from games import state as table_state
from games.bots.appraisal import appraise
from games.bots.strong import StrongBot
from games.engine.actions import Action
from games.engine.views import View
from games.models import MatchResult, Seat, Table

from .models import HintUse


def hints_allowed(table: Table) -> bool:
    """Whether ``table`` is one where hints may be given (whoever asks)."""
    if (
        table.rated
        or Table.objects.filter(pk=table.pk, tournament_assignment__isnull=False).exists()
    ):
        return False
    return Seat.objects.filter(table=table, user__isnull=False).count() == 1


def hint_give(*, table_id: int, user: User) -> dict[str, Any]:
    """The strong bot's choice for ``user``'s decision now; raises before anything is
    kept when a hint is not allowed here or it is not his turn."""
    table = table_selectors.table_get(table_id=table_id)
    seat = table_selectors.seat_of(table_id=table_id, user=user)
    if seat is None or table.status != Table.Status.PLAYING or not hints_allowed(table):
        raise err.HintRefused
    with table_state.locked(table) as state:
        match = state.match
        if match.to_act != seat:
            raise err.NotYourTurn
        view = match.view(seat)
        version = state.version
    # Decided outside the table's lock: bot turns do not wait for the search.
    bot = StrongBot(table.pk)  # the strong bot, at the live tables' budget
    action, reason = _choice_with_reason(bot, view)
    data = action.to_dict()
    HintUse.objects.create(table=table, user=user, seat=seat, version=version, action=data)
    return {
        "action": data,
        "reason": reason,
        "version": version,
        "hints": HintUse.objects.filter(table=table, seat=seat).count(),
    }


def _choice_with_reason(bot: StrongBot, view: View) -> tuple[Action, dict[str, Any] | None]:
    """The strong bot's choice and why: the mean value it expects from it over the rest of
    the deal (points of its standing in the match against the others') and how much more
    that is than the next best candidate it weighed. ``None`` where there is nothing to
    weigh (the two face-down talons)."""
    choice = bot.decide(view)
    appraisal = appraise(bot, view, choice) if len(view.legal) > 1 else None
    if appraisal is None:
        return choice, None
    best, value = appraisal.values[0]
    runner = appraisal.values[1] if len(appraisal.values) > 1 else None
    return best, {
        "value": round(value, 1),
        "other": runner[0].to_dict() if runner else None,
        "gain": round(value - runner[1], 1) if runner else None,
    }


@transaction.atomic
def hints_note(*, table_id: int) -> None:
    """Write the hints used into the finished match's record (``meta.hints``: per seat)."""
    used = list(
        HintUse.objects.filter(table_id=table_id)
        .values("seat")
        .annotate(count=Count("id"))
        .order_by("seat")
    )
    if not used:
        return
    result = MatchResult.objects.select_for_update().filter(table_id=table_id).first()
    if result is None:
        return
    record = dict(result.record)
    record["meta"] = {**record.get("meta", {}), "hints": used}
    result.record = record
    result.save(update_fields=["record"])
