"""Celery tasks of accounts, on the ``mail`` queue (CELERY_TASK_ROUTES)."""

from typing import Any

from celery import shared_task

from accounts import mail


@shared_task(bind=True, name="accounts.mail_send", max_retries=None, acks_late=True)
def mail_send(self: Any, mail_id: int) -> bool:
    """Send one mail of the outbox; on SMTP failure try again later (1, 2, 4… minutes;
    at once when tasks run eagerly, in the embedded mode), until the last attempt."""
    while True:
        try:
            return mail.mail_deliver(mail_id=mail_id)
        except mail.MailNotSent as exc:
            if not self.request.is_eager:
                raise self.retry(exc=exc, countdown=60 * 2 ** min(self.request.retries, 6)) from exc


@shared_task(name="accounts.closed_erase")
def closed_erase() -> int:
    """Erase the closed accounts whose grace period is over."""
    from django.conf import settings

    from accounts import services

    return services.accounts_closed_erase(grace_seconds=settings.ACCOUNTS_CLOSE_GRACE_SECONDS)
