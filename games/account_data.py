"""A person's matches in his data download (accounts.signals)."""

from typing import Any

from django.dispatch import receiver

from accounts.signals import account_data
from accounts.types import User
from games.models import Seat


@receiver(account_data, dispatch_uid="games.account_data")
def _data(sender: Any, user: User, **kwargs: Any) -> tuple[str, Any]:
    seats = Seat.objects.filter(user=user).select_related("table", "table__result")
    matches = []
    for seat in seats.order_by("table_id"):
        result = getattr(seat.table, "result", None)
        matches.append(
            {
                "table": seat.table_id,
                "seat": seat.number,
                "status": seat.table.status,
                "rated": seat.table.rated,
                "finished": result.finished_at.isoformat() if result else None,
                "final_scores": result.final_scores if result else None,
                "placements": result.placements if result else None,
            }
        )
    return "matches", matches
