"""E-mail notices: what a player chose to be told of by mail, and the mail itself.

Higher apps (tournaments, social, clubs) call :func:`notice_queue` with the kind and
their own words; accounts decides whether it is sent (the kind chosen, a confirmed
address, an open account), writes it in the recipient's language through the outbox
(``accounts.mail``), and adds a one-click unsubscribe link for that kind: in the text,
and as ``List-Unsubscribe`` with ``List-Unsubscribe-Post: List-Unsubscribe=One-Click``
(RFC 8058). The link carries a signed token, so it works without signing in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django.conf import settings
from django.core import signing
from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.mail import mail_language, mail_queue
from accounts.models import Mail, NoticeChoice, NoticeKind, User

UNSUBSCRIBE_SALT = "accounts.notice.unsubscribe"

# A notice's words: text, or a function that gives it, called in the recipient's language.
Words = str | Callable[[], str]


def _said(words: Words) -> str:
    return str(words() if callable(words) else words)


def site_link(path: str) -> str:
    """An absolute address on the site (``SITE_URL``) for a path; an absolute address
    is kept as it is."""
    if not path or "://" in path:
        return path
    return settings.SITE_URL.rstrip("/") + "/" + path.lstrip("/")


def notice_unsubscribe_token(*, user: User, kind: str) -> str:
    return signing.dumps({"u": user.pk, "k": kind}, salt=UNSUBSCRIBE_SALT, compress=True)


@transaction.atomic
def notice_queue(
    *, user: User, kind: str, subject: Words, body: Words, link: str = ""
) -> Mail | None:
    """Mail ``user`` a notice of ``kind`` (a :class:`~accounts.models.NoticeKind`), if
    he chose that kind and has a confirmed address; None when nothing is sent.

    ``subject`` and ``body`` are called (when functions) in his language; ``link``, a
    path on the site or an absolute address, is where the notice leads. The mail goes
    out after the commit, through the outbox's queue (retried on SMTP failure).
    """
    if kind not in NoticeKind.values:
        raise ValueError(f"unknown notice kind: {kind}")
    fresh = User.objects.filter(pk=user.pk, is_active=True, closed_at__isnull=True).first()
    if fresh is None or not fresh.email:
        return None
    if not NoticeChoice.objects.filter(user=fresh, kind=kind).exists():
        return None
    token = notice_unsubscribe_token(user=fresh, kind=kind)
    unsubscribe = site_link(reverse("accounts:notice_unsubscribe", args=[token]))
    with translation.override(mail_language(fresh)):
        subject_text, body_text = _said(subject), _said(body)
        label = str(NoticeKind(kind).label)
    return mail_queue(
        kind=kind,
        to=fresh.email,
        user=fresh,
        subject=subject_text,
        template="notice",
        context={
            "body": body_text,
            "link": site_link(link),
            "kind_label": label,
            "unsubscribe": unsubscribe,
            "settings_link": site_link(reverse("accounts:notices")),
        },
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )


@transaction.atomic
def notices_choose(*, user: User, kinds: Iterable[str]) -> list[str]:
    """The kinds of notice ``user`` gets by mail from now on (the others stop); an
    unknown kind is refused and nothing changes. Returns the kinds chosen."""
    chosen = sorted(set(kinds))
    unknown = [k for k in chosen if k not in NoticeKind.values]
    if unknown:
        raise ValidationError(
            {"notices": _("Unknown kind of notice: %(kind)s.") % {"kind": ", ".join(unknown)}}
        )
    NoticeChoice.objects.filter(user=user).exclude(kind__in=chosen).delete()
    have = set(NoticeChoice.objects.filter(user=user).values_list("kind", flat=True))
    NoticeChoice.objects.bulk_create(
        NoticeChoice(user=user, kind=k) for k in chosen if k not in have
    )
    return chosen


@transaction.atomic
def notice_unsubscribe(*, token: str) -> tuple[User, str]:
    """Turn off the kind of notice an unsubscribe link names, for the account it names,
    without signing in. A tampered link raises ValidationError and changes nothing;
    a link used before changes nothing more. Returns the account and the kind."""
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature as exc:
        raise ValidationError(_("This link is not valid.")) from exc
    if not isinstance(data, dict) or not isinstance(data.get("u"), int):
        raise ValidationError(_("This link is not valid."))
    kind = str(data.get("k") or "")
    user = User.objects.filter(pk=data["u"]).first()
    if user is None or kind not in NoticeKind.values:
        raise ValidationError(_("This link is not valid."))
    NoticeChoice.objects.filter(user=user, kind=kind).delete()
    return user, kind
