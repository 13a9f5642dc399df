"""What an event tells its entrants: :class:`Announcement` from the organiser to every
entrant, and :class:`Notification`, one line in a player's notification area.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.event import Tournament


class Announcement(models.Model):
    """A short message from the organiser to every entrant of an event."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="announcements"
    )
    text = models.CharField(_("message"), max_length=500)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("organiser"),
    )
    created_at = models.DateTimeField(_("sent"), auto_now_add=True)

    class Meta:
        verbose_name = _("announcement")
        verbose_name_plural = _("announcements")
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return self.text[:60]


class Notification(models.Model):
    """One line in a player's notification area (the site header): an announcement,
    check-in opening, his table being ready, a message of a club he belongs to."""

    class Kind(models.TextChoices):
        ANNOUNCEMENT = "announcement", _("announcement")
        CHECK_IN = "check_in", _("check-in is open")
        TABLE_READY = "table_ready", _("your table is ready")
        CANCELLED = "cancelled", _("the tournament is cancelled")
        DISQUALIFIED = "disqualified", _("you were disqualified")
        AMENDED = "amended", _("your table's places were amended")
        STARTS_SOON = "starts_soon", _("starts soon")
        CHECK_IN_SOON = "check_in_soon", _("check-in closes soon")
        # A message of a group the player belongs to (a club's, sent by a higher app): no
        # tournament; ``params`` name the sender ("sender") and hold its subject.
        GROUP_MESSAGE = "group_message", _("a message to members")
        # The moderators' fair-play warning (sent by a higher app): no tournament, no
        # parameters; its words are the same for everybody and name nobody.
        FAIR_PLAY = "fair_play", _("a fair-play reminder")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="tournament_notifications",
        verbose_name=_("player"),
    )
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="notifications", null=True, blank=True
    )
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    # The organiser's own words (an announcement, a reason); a notice of the site's is
    # its ``kind`` and ``params``, put into words when it is read, in the reader's
    # language (older rows of the site's notices kept their words in ``text``).
    text = models.CharField(_("text"), max_length=600)
    params = models.JSONField(_("parameters"), default=dict, blank=True)
    url = models.CharField(_("link"), max_length=200, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    read_at = models.DateTimeField(_("read"), null=True, blank=True)

    class Meta:
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["user", "read_at"], name="tournaments_notif_unread")]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.text[:40]}"
