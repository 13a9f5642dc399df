"""Chat at the tables and in the tournaments, and its moderation (docs/social.md).

Where a person writes is decided from him against the table's seats as they are in the
database: a seated player in the table's room, anyone else in its spectators' room. A
spectators' message said while the match is playing carries the people seated then, and
no socket of theirs forwards it (``social.consumers``); after the match everybody sees it.
Every message is checked before it is stored: the person's switch, the table's, a
moderator's mute, its length, the rate (shared by every process: the cache is Redis on
the full stack), then the word filter.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import User
from core.unstorable import MESSAGE as UNSTORABLE
from core.unstorable import storable
from games.models import Seat, Table
from social import errors, realtime, wordfilter
from social.models import ChatBan, ChatMessage, ChatReport, ChatSettings, TableChat
from social.selectors import (
    chat_off_for,
    may_moderate,
    message_readable,
    table_chat_off,
    tournament_chat_access,
    tournament_of,
    watchable_table,
)

Room = ChatMessage.Room

REPORT_REASON_MAX = 300

NO_SUCH_MESSAGE = gettext_lazy("No such message.")


def _rate_allow(user_id: int) -> bool:
    """Count one message of ``user_id`` (``SOCIAL_CHAT_RATE``: so many in so many seconds
    from the first of them); the counter is in the cache, shared by every process."""
    limit, seconds = settings.SOCIAL_CHAT_RATE
    key = f"social:chat:rate:{user_id}"
    cache.add(key, 0, timeout=seconds)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between the two calls: a new window
        cache.set(key, 1, timeout=seconds)
        count = 1
    return count <= limit


def _clean(text: str) -> str:
    if not storable(text or ""):  # before the rate is counted (core/unstorable.py)
        raise errors.Invalid(UNSTORABLE)
    text = " ".join((text or "").split())
    if not text:
        raise errors.Invalid(_("Write a message."))
    if len(text) > settings.SOCIAL_CHAT_MAX_LENGTH:
        raise errors.Invalid(
            _("A message has at most %(n)s characters.") % {"n": settings.SOCIAL_CHAT_MAX_LENGTH}
        )
    return text


def banned(user_id: int, tournament_id: int | None, table_id: int | None = None) -> bool:
    """Whether a moderator's mute holds for ``user_id`` here now: a site-wide one, one
    in this tournament, or one at this table."""
    place = Q(tournament__isnull=True, table__isnull=True)
    if tournament_id is not None:
        place |= Q(tournament_id=tournament_id)
    if table_id is not None:
        place |= Q(table_id=table_id)
    return ChatBan.objects.filter(place, user_id=user_id, until__gt=timezone.now()).exists()


def seated_people(table: Table) -> list[int]:
    return [
        uid
        for uid in Seat.objects.filter(table=table, user__isnull=False).values_list(
            "user_id", flat=True
        )
        if uid is not None
    ]


def _checks(user: User, tournament_id: int | None, table_id: int | None = None) -> None:
    if chat_off_for(user.pk):
        raise errors.ChatOff(_("Your chat is off: turn it on to write."))
    if banned(user.pk, tournament_id, table_id):
        raise errors.Muted()


def chat_say(
    *,
    user: User,
    text: str,
    table_id: int | None = None,
    tournament_id: int | None = None,
    invite_code: str | None = None,
) -> ChatMessage:
    """``user`` says ``text`` at a table (in its players' or its spectators' room, by
    his seat) or in a tournament's chat. Raises before storing anything."""
    if (table_id is None) == (tournament_id is None):
        raise errors.Invalid()
    text = _clean(text)
    with transaction.atomic():
        hide_from: list[int] | None = None
        place: dict[str, Any]
        if table_id is not None:
            table = watchable_table(table_id=table_id, user=user, invite_code=invite_code)
            if table_chat_off(table.pk):
                raise errors.ChatOff()
            _checks(user, tournament_of(table.pk), table.pk)
            seated = seated_people(table)
            room = Room.PLAYERS if user.pk in seated else Room.SPECTATORS
            if room == Room.SPECTATORS and table.status == Table.Status.PLAYING:
                hide_from = seated
            place = {"table": table}
        else:
            assert tournament_id is not None
            access = tournament_chat_access(user=user, tournament_id=tournament_id)
            if access.closed:
                raise errors.Forbidden(_("The tournament was cancelled: its chat is closed."))
            if not access.write:
                raise errors.Forbidden(_("Only the entrants and the organiser write here."))
            _checks(user, tournament_id)
            room = Room.TOURNAMENT
            hide_from = access.playing_now
            place = {"tournament_id": tournament_id}
        if not _rate_allow(user.pk):
            raise errors.RateLimited()
        message = ChatMessage.objects.create(
            room=room, author=user, text=wordfilter.censor(text), **place
        )
        transaction.on_commit(lambda: realtime.chat_said(message, hide_from))
    return message


@transaction.atomic
def chat_report(
    *, user: User, message_id: int, reason: str = "", invite_code: str | None = None
) -> ChatReport:
    """``user`` reports a message he may read (``social.selectors.readable_messages``: a
    private table's with a seat or its invite code) to the moderators, once per message.
    A message he may not read is "no such message", as one that does not exist."""
    if not storable(reason or ""):
        raise errors.Invalid(UNSTORABLE)
    message = message_readable(user=user, message_id=message_id, invite_code=invite_code)
    if message is None:
        raise errors.NotFound(NO_SUCH_MESSAGE)
    if message.author_id == user.pk:
        raise errors.Invalid(_("That is your own message."))
    report, _created = ChatReport.objects.get_or_create(
        message=message,
        reporter=user,
        defaults={"reason": (reason or "").strip()[:REPORT_REASON_MAX]},
    )
    return report


def message_place(message: ChatMessage) -> dict[str, int | None]:
    """Where a mute "in the event" of a message holds: its tournament (its own chat or
    one of its tables), else the casual table it was said at."""
    tournament_id = message_tournament(message)
    if tournament_id is not None:
        return {"tournament_id": tournament_id, "table_id": None}
    return {"tournament_id": None, "table_id": message.table_id}


def message_tournament(message: ChatMessage) -> int | None:
    if message.tournament_id is not None:
        return message.tournament_id
    return tournament_of(message.table_id) if message.table_id is not None else None


@transaction.atomic
def message_hide(*, by: User, message_id: int) -> ChatMessage:
    """A moderator hides a message: gone from every chat at once, kept for the record
    (and its reports marked handled)."""
    message = ChatMessage.objects.select_for_update().filter(pk=message_id).first()
    if message is None or not may_moderate(user=by, tournament_id=message_tournament(message)):
        # The same answer for a message he may not moderate as for none: no oracle of
        # which ids exist in chats he cannot read.
        raise errors.NotFound(NO_SUCH_MESSAGE)
    if message.hidden_at is None:
        message.hidden_at = timezone.now()
        message.hidden_by = by
        message.save(update_fields=["hidden_at", "hidden_by"])
        hidden = message
        transaction.on_commit(lambda: realtime.chat_hidden(hidden))
    ChatReport.objects.filter(message=message, handled_at__isnull=True).update(
        handled_at=timezone.now(), handled_by=by
    )
    return message


@transaction.atomic
def chat_ban(
    *,
    by: User,
    user: User,
    minutes: int,
    tournament_id: int | None = None,
    table_id: int | None = None,
    reason: str = "",
) -> ChatBan:
    """A moderator mutes ``user`` for ``minutes``: in one tournament (its organiser or
    the staff), at one casual table (the staff), or everywhere (the staff, neither
    given). Takes effect at his next message."""
    if not 1 <= minutes <= 60 * 24 * 365:
        raise errors.Invalid(_("Mute for one minute to one year."))
    if tournament_id is not None and table_id is not None:
        raise errors.Invalid()
    if not may_moderate(user=by, tournament_id=tournament_id):
        raise errors.Forbidden()
    if user.pk == by.pk:
        raise errors.Invalid(_("That is you."))
    return ChatBan.objects.create(
        user=user,
        tournament_id=tournament_id,
        table_id=table_id,
        until=timezone.now() + timedelta(minutes=minutes),
        reason=(reason or "").strip()[:300],
        created_by=by,
    )


@transaction.atomic
def reports_dismiss(*, by: User, report_ids: list[int]) -> int:
    """A moderator closes reports without acting on their messages; returns how many
    (only those he may moderate)."""
    closed = 0
    for report in ChatReport.objects.select_related("message").filter(
        pk__in=report_ids, handled_at__isnull=True
    ):
        if may_moderate(user=by, tournament_id=message_tournament(report.message)):
            report.handled_at = timezone.now()
            report.handled_by = by
            report.save(update_fields=["handled_at", "handled_by"])
            closed += 1
    return closed


@transaction.atomic
def chat_switch(*, user: User, off: bool) -> ChatSettings:
    """The person's own switch: with chat off he neither sees nor writes any (live)."""
    row, _created = ChatSettings.objects.update_or_create(user=user, defaults={"chat_off": off})
    uid = user.pk
    transaction.on_commit(lambda: realtime.user_changed(uid))
    return row


@transaction.atomic
def table_chat_switch(*, user: User, table_id: int, off: bool) -> TableChat:
    """The table's creator turns its chat off (or on again)."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise errors.NotFound(_("No such table."))
    if table.created_by_id != user.pk and not user.is_staff:
        raise errors.Forbidden(_("Only the table's creator switches its chat."))
    row, _created = TableChat.objects.update_or_create(table=table, defaults={"chat_off": off})
    transaction.on_commit(lambda: realtime.table_chat_switched(table_id, off))
    return row


@transaction.atomic
def chat_expire() -> int:
    """Delete chat older than ``SOCIAL_CHAT_RETENTION_DAYS``, except messages whose report
    waits in the moderation queue; returns how many."""
    cutoff = timezone.now() - timedelta(days=settings.SOCIAL_CHAT_RETENTION_DAYS)
    waiting = ChatReport.objects.filter(handled_at__isnull=True).values("message_id")
    old = ChatMessage.objects.filter(created_at__lt=cutoff).exclude(pk__in=waiting)
    deleted, _ = old.delete()
    return deleted
