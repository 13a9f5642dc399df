"""Celery tasks of the ratings app: thin, they load by id and call one service."""

from __future__ import annotations

from celery import shared_task

from ratings.services import rating_apply_duplicate_round, rating_apply_result


@shared_task(
    name="ratings.apply_result", acks_late=True, autoretry_for=(ConnectionError,), max_retries=5
)
def apply_result(result_id: int) -> str:
    """Apply one finished match's result to the ratings (idempotent: safe to retry)."""
    return rating_apply_result(result_id=result_id).status


@shared_task(
    name="ratings.apply_duplicate_round",
    acks_late=True,
    autoretry_for=(ConnectionError,),
    max_retries=5,
)
def apply_duplicate_round(round_id: int) -> str:
    """Rate a duplicate round's tables by board comparison (idempotent: safe to retry)."""
    return rating_apply_duplicate_round(round_id=round_id).status
