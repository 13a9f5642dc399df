"""The fair-play Celery tasks, on the ``analysis`` queue: load by id, call the service."""

from __future__ import annotations

from celery import shared_task

from fairplay.full_analysis import TASK, flag_analyse, flag_analysis_fail
from fairplay.services import match_screen


@shared_task(name="fairplay.screen_match", acks_late=True, ignore_result=True)
def screen_match(result_id: int) -> bool:
    """Screen one finished rated match (idempotent: a match is counted once)."""
    return match_screen(result_id=result_id) is not None


@shared_task(name=TASK, acks_late=True, ignore_result=True)
def analyse_flag(flag_id: int) -> bool:
    """The full analysis of a flag's matches (run again from the start if its worker
    dies; a failure is kept on the flag for the moderators)."""
    try:
        return flag_analyse(flag_id=flag_id)
    except Exception as exc:
        flag_analysis_fail(flag_id=flag_id, error=repr(exc))
        raise
