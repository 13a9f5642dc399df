"""A finished match at a tournament's table enqueues the task that records it; the
pages of live tables ask which of their results an organiser amended."""

from collections.abc import Iterable
from typing import Any

from games import errors as game_errors
from games.placing import Amendment
from tournaments.models import Assignment


def on_match_finished(
    sender: Any, *, result_id: int, table_id: int | None = None, **kwargs: Any
) -> None:
    # The signal comes after the commit that wrote the result.
    if table_id is not None and not Assignment.objects.filter(table_id=table_id).exists():
        return
    from tournaments.tasks import record_result

    record_result.delay(result_id)


def on_result_amendments(
    sender: Any, *, table_ids: Iterable[int], **kwargs: Any
) -> dict[int, Amendment]:
    """The amended tournament tables among ``table_ids``: their places by seat and the
    organiser's reason."""
    amended = (
        Assignment.objects.filter(table_id__in=list(table_ids), amended=True)
        .prefetch_related("seats")
        .order_by("pk")
    )
    return {
        assignment.table_id: Amendment(
            places=tuple(
                s.place or 0 for s in sorted(assignment.seats.all(), key=lambda s: s.number)
            ),
            reason=assignment.amend_reason,
        )
        for assignment in amended
        if assignment.table_id is not None
    }


def refuse_rematch(sender: Any, *, table: Any, **kwargs: Any) -> None:
    """A tournament's table is seated again only by its tournament: no "play again"."""
    if Assignment.objects.filter(table_id=table.pk).exists():
        raise game_errors.Forbidden("a tournament's table is not played again")
