"""Celery tasks of the social app: load, call one service, nothing else."""

from celery import shared_task

from social import services


@shared_task(name="social.chat_expire", ignore_result=True)
def chat_expire() -> int:
    """Delete chat past ``SOCIAL_CHAT_RETENTION_DAYS`` (docs/social.md)."""
    return services.chat_expire()


@shared_task(name="social.challenges_expire", ignore_result=True)
def challenges_expire() -> int:
    """Close the challenges not answered in time; their people see it at once."""
    return services.challenges_expire()


@shared_task(name="social.reminders_send", ignore_result=True)
def reminders_send() -> int:
    """Remind the entrants of the tournaments that start soon."""
    return services.reminders_send()
