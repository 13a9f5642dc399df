"""The fair-play Celery task, on the ``analysis`` queue: load by id, call the service."""

from __future__ import annotations

from celery import shared_task

from fairplay.services import match_screen


@shared_task(name="fairplay.screen_match", acks_late=True, ignore_result=True)
def screen_match(result_id: int) -> bool:
    """Screen one finished rated match (idempotent: a match is counted once)."""
    return match_screen(result_id=result_id) is not None
