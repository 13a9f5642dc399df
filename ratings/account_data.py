"""A person's rating history in his data download (accounts.signals)."""

from typing import Any

from django.dispatch import receiver

from accounts.signals import account_data
from accounts.types import User
from ratings.models import RatingChange


@receiver(account_data, dispatch_uid="ratings.account_data")
def _data(sender: Any, user: User, **kwargs: Any) -> tuple[str, Any]:
    changes = RatingChange.objects.filter(competitor__user=user).order_by("played_at")
    return "ratings", [
        {
            "match": c.result_id,
            "played": c.played_at.isoformat(),
            "place": c.place,
            "before": c.before,
            "after": c.after,
            "change": c.delta,
        }
        for c in changes
    ]
