"""The social app in the tournaments (docs/social.md): the organiser's announcements in the
tournament's chat, and the reminders before a registered tournament starts and before
its check-in closes (in the player's notification area, through
``tournaments.notices``)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from social import realtime
from social.models import ChatMessage, Reminder
from tournaments.models import Announcement, Notification, Registration, Tournament

R = Registration.Status


def announcement_to_chat(*, announcement: Announcement) -> ChatMessage | None:
    """The organiser's announcement, as a marked message of the tournament's chat:
    shown to everybody there, the players at their tables too (it is the organiser's,
    not a spectator's). None when nobody is named as its author."""
    author_id = announcement.created_by_id or announcement.tournament.created_by_id
    if author_id is None:
        return None
    message = ChatMessage.objects.create(
        room=ChatMessage.Room.TOURNAMENT,
        tournament_id=announcement.tournament_id,
        author_id=author_id,
        announcement=True,
        text=announcement.text,
    )
    transaction.on_commit(lambda: realtime.chat_said(message, None))
    return message


def _remind(tournament: Tournament, user_ids: list[int], kind: str, minutes: int) -> int:
    """One reminder of ``kind`` for each of ``user_ids`` not reminded yet. It is stored
    as a kind and its minutes and put into words when read, in the reader's language."""
    from tournaments import notices

    fresh = []
    for uid in user_ids:
        try:
            with transaction.atomic():
                Reminder.objects.create(tournament=tournament, user_id=uid, kind=kind)
        except IntegrityError:
            continue  # reminded already (by a run of the task on another worker)
        fresh.append(uid)
    notices.notifications_create(
        tournament=tournament,
        user_ids=fresh,
        kind=(
            Notification.Kind.CHECK_IN_SOON
            if kind == Reminder.Kind.CHECK_IN
            else Notification.Kind.STARTS_SOON
        ),
        params={"minutes": minutes},
        url=reverse("tournaments:detail", args=[tournament.pk]),
    )
    return len(fresh)


@transaction.atomic
def reminders_send(*, now: datetime | None = None) -> int:
    """Remind each entrant once, ``SOCIAL_REMINDER_MINUTES`` before a tournament starts:
    those who must still check in that check-in closes, the others that it starts.
    Returns how many reminders went out."""
    now = now or timezone.now()
    soon = now + timedelta(minutes=settings.SOCIAL_REMINDER_MINUTES)
    sent = 0
    due = Tournament.objects.filter(
        status__in=Tournament.ENTERABLE, starts_at__gt=now, starts_at__lte=soon
    )
    for tournament in due:
        minutes = max(1, round((tournament.starts_at - now).total_seconds() / 60))
        rows = list(
            tournament.registrations.filter(status__in=(R.REGISTERED, R.CHECKED_IN)).values_list(
                "user_id", "status"
            )
        )
        must_check_in = [u for u, s in rows if tournament.check_in_minutes and s == R.REGISTERED]
        playing = [u for u, s in rows if u not in must_check_in]
        sent += _remind(tournament, playing, Reminder.Kind.START, minutes)
        sent += _remind(tournament, must_check_in, Reminder.Kind.CHECK_IN, minutes)
    return sent
