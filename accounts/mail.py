"""Mail: written into the outbox (:class:`~accounts.models.Mail`) in the recipient's
language when a service asks, sent by the ``mail`` queue's worker after the commit.

A mail is text and HTML, rendered from ``templates/accounts/mail/<kind>.txt`` and
``.html``. Sending is retried on SMTP failure (``ACCOUNTS_MAIL_ATTEMPTS`` attempts in all);
the last failure marks the row failed, which the admin lists.
"""

from __future__ import annotations

import smtplib
from typing import Any

from celery import current_app
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.mail import EmailMultiAlternatives
from django.core.validators import validate_email
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import Mail, User

SUBJECTS = {
    "email_confirm": gettext_lazy("Confirm your address"),
    "email_changed": gettext_lazy("Your address was changed"),
    "password_reset": gettext_lazy("Reset your password"),
}

# What a failed attempt may be: the server refused, hung up, or could not be reached.
SEND_ERRORS = (smtplib.SMTPException, OSError)

SEND_TASK = "accounts.mail_send"


class MailNotSent(Exception):
    """An attempt failed and another will be made."""


def address_clean(value: str) -> str:
    """An address as stored: trimmed, one line, valid. Header injection (a line break, a
    second address) is refused here, before anything is written."""
    value = value.strip()
    if any(c in value for c in "\r\n\x00,;<>"):
        raise ValidationError(_("Enter a valid email address."), code="invalid")
    validate_email(value)
    return value


def one_line(value: str, limit: int = 200) -> str:
    """A header's text on one line: a line break in a name (a tournament's, a player's)
    can add no header of its own."""
    return " ".join(value.split())[:limit]


def mail_language(user: User | None) -> str:
    return (user.preferred_language if user else "") or settings.LANGUAGE_CODE


def mail_queue(
    *,
    kind: str,
    to: str,
    user: User | None,
    context: dict[str, Any],
    subject: str | None = None,
    template: str | None = None,
    headers: dict[str, str] | None = None,
) -> Mail:
    """Write a mail into the outbox in ``user``'s language and send it after the commit:
    ``templates/accounts/mail/<template or kind>.txt|.html``, the subject of its kind
    unless ``subject`` is given (already in the recipient's language)."""
    to = address_clean(to)
    template = template or kind
    with translation.override(mail_language(user)):
        values = {"user": user, "site_name": _("Thousand"), **context}
        subject = one_line(subject if subject is not None else str(SUBJECTS[kind]))
        text = render_to_string(f"accounts/mail/{template}.txt", values)
        html = render_to_string(f"accounts/mail/{template}.html", values)
    mail = Mail.objects.create(
        user=user,
        kind=kind,
        to=to,
        subject=subject,
        text=text,
        html=html,
        headers={name: one_line(value, 2000) for name, value in (headers or {}).items()},
    )

    def send() -> None:
        # By name: the task module imports this one (accounts.apps registers it).
        current_app.tasks[SEND_TASK].delay(mail.pk)

    transaction.on_commit(send)
    return mail


def mail_deliver(*, mail_id: int) -> bool:
    """One attempt at a mail. True when sent (or sent before); False when this was the last
    attempt and it failed (the row is marked failed); raises :class:`MailNotSent` when
    another attempt should follow."""
    with transaction.atomic():
        mail = Mail.objects.select_for_update().filter(pk=mail_id).first()
        if mail is None or mail.status != Mail.Status.PENDING:
            return mail is not None and mail.status == Mail.Status.SENT
        message = EmailMultiAlternatives(
            mail.subject, mail.text, to=[mail.to], headers=mail.headers or None
        )
        if mail.html:
            message.attach_alternative(mail.html, "text/html")
        mail.attempts += 1
        try:
            message.send()
        except SEND_ERRORS as exc:
            mail.last_error = f"{type(exc).__name__}: {exc}"[:2000]
            last = mail.attempts >= settings.ACCOUNTS_MAIL_ATTEMPTS
            if last:
                mail.status = Mail.Status.FAILED
            mail.save(update_fields=["attempts", "last_error", "status"])
        else:
            mail.status = Mail.Status.SENT
            mail.sent_at = timezone.now()
            mail.save(update_fields=["attempts", "status", "sent_at"])
            return True
    if last:
        return False
    raise MailNotSent(mail.last_error)
