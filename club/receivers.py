"""Signal receivers of the club: an organiser's announcement also goes to the
tournament's chat (after it is committed with the announcement)."""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_save
from django.dispatch import receiver

from tournaments.models import Announcement


@receiver(post_save, sender=Announcement, dispatch_uid="club.announcement_to_chat")
def announcement_to_chat(sender: Any, instance: Announcement, created: bool, **kwargs: Any) -> None:
    if created:
        from club import services

        services.announcement_to_chat(announcement=instance)
