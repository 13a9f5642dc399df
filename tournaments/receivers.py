"""A finished match at a tournament's table enqueues the task that records it."""

from typing import Any

from tournaments.models import Assignment


def on_match_finished(
    sender: Any, *, result_id: int, table_id: int | None = None, **kwargs: Any
) -> None:
    # The signal comes after the commit that wrote the result.
    if table_id is not None and not Assignment.objects.filter(table_id=table_id).exists():
        return
    from tournaments.tasks import record_result

    record_result.delay(result_id)
