"""Signal receivers of the social app: an organiser's announcement also goes to the
tournament's chat (committed with the announcement); a person blocked by someone
seated at a table cannot take a seat there; when a match ends, the sockets on its
table's page read the chat again (its spectators' room is everybody's now)."""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_save
from django.dispatch import receiver
from django.utils.translation import gettext as _

from accounts.models import User
from games import errors as table_errors
from games.models import Table
from games.signals import match_finished, table_joining, table_opened
from tournaments.models import Announcement


@receiver(post_save, sender=Announcement, dispatch_uid="social.announcement_to_chat")
def announcement_to_chat(sender: Any, instance: Announcement, created: bool, **kwargs: Any) -> None:
    if created:
        from social import services

        services.announcement_to_chat(announcement=instance)


@receiver(table_joining, dispatch_uid="social.refuse_blocked_join")
def refuse_blocked_join(sender: Any, table: Table, user: User, **kwargs: Any) -> None:
    from social.models import Block

    seated = table.seats.filter(user__isnull=False).values("user_id")
    if Block.objects.filter(blocker_id__in=seated, blocked=user).exists():
        raise table_errors.Forbidden(_("A player at this table does not play with you."))


@receiver(table_opened, dispatch_uid="social.table_chat_off_from_the_start")
def table_chat_off_from_the_start(
    sender: Any, table: Table, user: User, chat: bool, **kwargs: Any
) -> None:
    """The creator asked for the table's chat off when he opened it (the lobby's box, the
    API's ``chat: false``)."""
    if not chat:
        from social import services

        services.table_chat_switch(user=user, table_id=table.pk, off=True)


@receiver(match_finished, dispatch_uid="social.spectators_room_released")
def spectators_room_released(sender: Any, table_id: int, **kwargs: Any) -> None:
    """Sent after the commit: the players' open pages get the spectators' lines."""
    from social import realtime

    realtime.table_match_ended(table_id)
