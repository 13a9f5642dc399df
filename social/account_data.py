"""A person's chat lines and reports in his data download; his chat lines removed when
his closed account is erased (accounts.signals)."""

from typing import Any

from django.dispatch import receiver

from accounts.signals import account_data, account_erasing
from accounts.types import User
from social.models import ChatMessage, ChatReport


@receiver(account_data, dispatch_uid="social.account_data")
def _data(sender: Any, user: User, **kwargs: Any) -> tuple[str, Any]:
    return "chat", {
        "lines": [
            {
                "room": m.room,
                "table": m.table_id,
                "tournament": m.tournament_id,
                "text": m.text,
                "written": m.created_at.isoformat(),
            }
            for m in ChatMessage.objects.filter(author=user).order_by("created_at")
        ],
        "reports_made": [
            {"message": r.message_id, "reason": r.reason, "reported": r.created_at.isoformat()}
            for r in ChatReport.objects.filter(reporter=user).order_by("created_at")
        ],
    }


@receiver(account_erasing, dispatch_uid="social.account_erasing")
def _erase(sender: Any, user: User, **kwargs: Any) -> None:
    ChatMessage.objects.filter(author=user).delete()
