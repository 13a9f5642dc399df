"""Writes of the organiser's messages and the players' notification area: an
announcement to every entrant, "check-in is open", "your table is ready". Each lands
in the player's notification area (the site header: an unread count, refreshed live when
his own socket, ``ws/notifications/``, says it changed); mailed too to a player who chose
that kind of notice (``MAIL_KINDS``, ``accounts.services.notice_queue``).

Services (keyword-only, atomic); the reads are in ``tournaments.selectors``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import NoticeKind
from accounts.services import notice_queue
from accounts.types import User
from tournaments import errors
from tournaments.models import Announcement, Notification, Registration, Tournament

ANNOUNCEMENT_MAX = 500


def _changed(tournament: Tournament) -> None:
    from tournaments import realtime

    pk = tournament.pk
    transaction.on_commit(lambda: realtime.tournament_changed(pk))


def notifications_create(
    *,
    tournament: Tournament | None,
    user_ids: Iterable[int],
    kind: str,
    text: str = "",
    url: str = "",
    params: dict[str, Any] | None = None,
) -> int:
    """One notification per player (the caller's transaction); returns how many. The
    site's own notices are a ``kind`` and its ``params``, put into words when read (in
    the reader's language); ``text`` is for the organiser's own words. A notice of no
    tournament (a club's message, sent by a higher app) is never e-mailed from here: its
    sender's app decides."""
    rows = [
        Notification(
            user_id=u,
            tournament=tournament,
            kind=kind,
            text=text[:600],
            params=params or {},
            url=url,
        )
        for u in dict.fromkeys(user_ids)
    ]
    Notification.objects.bulk_create(rows, batch_size=1000)
    if rows:
        from tournaments import realtime

        told = [r.user_id for r in rows]
        transaction.on_commit(lambda: realtime.notifications_changed(told))
    if rows and tournament is not None and kind in MAIL_KINDS:
        ids = [r.user_id for r in rows]
        _mail(tournament, ids, kind, text, url, params or {})
    return len(rows)


# What each notice is mailed as: the kinds a player opts in to (accounts.models.NoticeKind).
MAIL_KINDS: dict[str, str] = {
    Notification.Kind.CHECK_IN: NoticeKind.TOURNAMENT_REMINDER,
    Notification.Kind.CHECK_IN_SOON: NoticeKind.TOURNAMENT_REMINDER,
    Notification.Kind.STARTS_SOON: NoticeKind.TOURNAMENT_REMINDER,
    Notification.Kind.ANNOUNCEMENT: NoticeKind.TOURNAMENT_REMINDER,
    Notification.Kind.CANCELLED: NoticeKind.TOURNAMENT_REMINDER,
    Notification.Kind.TABLE_READY: NoticeKind.TOURNAMENT_START,
    Notification.Kind.AMENDED: NoticeKind.RESULT_AMENDED,
    Notification.Kind.DISQUALIFIED: NoticeKind.RESULT_AMENDED,
}


def _mail(
    tournament: Tournament,
    user_ids: list[int],
    kind: str,
    text: str,
    url: str,
    params: dict[str, Any],
) -> None:
    """The notice by mail to each player who chose its kind (accounts decides who; the
    words are put together in each one's language; sent after the commit)."""
    from tournaments.selectors import notification_text

    note = Notification(tournament=tournament, kind=kind, text=text, params=params, url=url)
    chosen = User.objects.filter(pk__in=user_ids, notice_choices__kind=MAIL_KINDS[kind])
    for user in chosen.exclude(email=""):
        notice_queue(
            user=user,
            kind=MAIL_KINDS[kind],
            subject=tournament.name,
            body=lambda: notification_text(note),
            link=url,
        )


@transaction.atomic
def announcement_create(
    *, tournament: Tournament | int, text: str, by: User | None = None
) -> Announcement:
    """The organiser's short message to every entrant (registered or checked in); shown
    on the tournament's page and in each entrant's notification area."""
    pk = tournament if isinstance(tournament, int) else tournament.pk
    event = Tournament.objects.select_for_update().filter(pk=pk).first()
    if event is None:
        raise errors.NotFound()
    text = (text or "").strip()
    if not text:
        raise errors.Invalid(_("Write a message."))
    if len(text) > ANNOUNCEMENT_MAX:
        raise errors.Invalid(_("A message has at most %(n)s characters.") % {"n": ANNOUNCEMENT_MAX})
    if event.status in (Tournament.Status.DRAFT, Tournament.Status.CANCELLED):
        raise errors.WrongState()
    note = Announcement.objects.create(tournament=event, text=text, created_by=by)
    entrants = event.registrations.filter(
        status__in=(Registration.Status.REGISTERED, Registration.Status.CHECKED_IN)
    ).values_list("user_id", flat=True)
    from django.urls import reverse

    notifications_create(
        tournament=event,
        user_ids=entrants,
        kind=Notification.Kind.ANNOUNCEMENT,
        text=text,
        url=reverse("tournaments:detail", args=[event.pk]),
    )
    _changed(event)
    return note


@transaction.atomic
def notifications_mark_read(*, user: User) -> int:
    """Every unread notification of the user is read now; returns how many."""
    return Notification.objects.filter(user=user, read_at__isnull=True).update(
        read_at=timezone.now()
    )
