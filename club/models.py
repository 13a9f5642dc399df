"""The club around the tables: who follows and who blocks whom (docs/social.md).

Kept in an app of its own, with foreign keys to the accounts, tables and tournaments it
is about, so that the games and the tournaments know nothing of it."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _


class Follow(models.Model):
    """One person follows another (one way, as lichess): the other's presence is on the
    follower's Friends list, and the other's links in chat are clickable for him."""

    follower = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="following",
        verbose_name=_("follower"),
    )
    followed = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="followers",
        verbose_name=_("followed"),
    )
    created_at = models.DateTimeField(_("since"), auto_now_add=True)

    class Meta:
        verbose_name = _("follow")
        verbose_name_plural = _("follows")
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="club_follow_once"),
            models.CheckConstraint(condition=~Q(follower=F("followed")), name="club_follow_other"),
        ]

    def __str__(self) -> str:
        return f"{self.follower_id} → {self.followed_id}"


class Block(models.Model):
    """One person blocks another: the blocked one cannot challenge him, message him or
    join his tables, and the blocker never sees the blocked one's chat."""

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="blocking",
        verbose_name=_("blocker"),
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="blocked_by",
        verbose_name=_("blocked"),
    )
    created_at = models.DateTimeField(_("since"), auto_now_add=True)

    class Meta:
        verbose_name = _("block")
        verbose_name_plural = _("blocks")
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="club_block_once"),
            models.CheckConstraint(condition=~Q(blocker=F("blocked")), name="club_block_other"),
        ]

    def __str__(self) -> str:
        return f"{self.blocker_id} ⊘ {self.blocked_id}"


class Mute(models.Model):
    """One person mutes another for himself: he no longer sees the other's chat."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="chat_mutes",
        verbose_name=_("player"),
    )
    muted = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("muted"),
    )
    created_at = models.DateTimeField(_("since"), auto_now_add=True)

    class Meta:
        verbose_name = _("mute")
        verbose_name_plural = _("mutes")
        constraints = [
            models.UniqueConstraint(fields=["user", "muted"], name="club_mute_once"),
            models.CheckConstraint(condition=~Q(user=F("muted")), name="club_mute_other"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} mutes {self.muted_id}"
