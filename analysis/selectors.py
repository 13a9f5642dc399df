"""Reads of the analysis: one table's, and a person's average over his analysed matches."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Avg, Count
from django.utils import timezone

from accounts.types import User

from .models import Analysis, PlayerAnalysis


def analysis_of(*, table_id: int) -> Analysis | None:
    return Analysis.objects.filter(table_id=table_id).first()


def analysis_stalled(analysis: Analysis, *, now: datetime | None = None) -> bool:
    """Running, but no decision finished for ``ANALYSIS_STALL_SECONDS``: its worker has
    likely stopped. The broker gives the task back after its visibility timeout and it
    starts over by itself (docs/analysis.md, "A worker dies")."""
    if analysis.status != Analysis.Status.RUNNING or analysis.progressed_at is None:
        return False
    quiet = (now or timezone.now()) - analysis.progressed_at
    return quiet > timedelta(seconds=settings.ANALYSIS_STALL_SECONDS)


def analysis_data(analysis: Analysis) -> dict[str, Any]:
    """The API's and the page's form: the state, and the result once done."""
    return {
        "table_id": analysis.table_id,
        "status": analysis.status,
        "done": analysis.done,
        "total": analysis.total,
        "seats": analysis.seats,
        "samples": analysis.samples,
        "seed": analysis.seed,
        "attempts": analysis.attempts,
        "stalled": analysis_stalled(analysis),
        "requested_at": analysis.requested_at.isoformat(),
        "finished_at": analysis.finished_at.isoformat() if analysis.finished_at else None,
        "result": analysis.result,
    }


def player_trend(*, user: User, limit: int = 50) -> dict[str, Any]:
    """A person's mean loss a decision over his analysed matches (overall and by stage)
    and, oldest first, the last ``limit`` matches' (for the trend chart)."""
    rows = PlayerAnalysis.objects.filter(user=user)
    overall = rows.aggregate(
        matches=Count("id"), mean_loss=Avg("mean_loss"), bidding=Avg("bidding"),
        contract=Avg("contract"), play=Avg("play"),
    )  # fmt: skip
    recent = list(
        rows.order_by("-finished_at").values(
            "analysis__table_id", "finished_at", "mean_loss", "decisions"
        )[:limit]
    )
    return {
        **{k: (round(v, 2) if isinstance(v, float) else v) for k, v in overall.items()},
        "matches_list": [
            {
                "table_id": r["analysis__table_id"],
                "finished_at": r["finished_at"].isoformat(),
                "mean_loss": round(r["mean_loss"], 2),
                "decisions": r["decisions"],
            }
            for r in reversed(recent)
        ],
    }
