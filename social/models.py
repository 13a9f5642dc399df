"""The social side of the tables: who follows and who blocks whom (docs/social.md).

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
            models.UniqueConstraint(fields=["follower", "followed"], name="social_follow_once"),
            models.CheckConstraint(
                condition=~Q(follower=F("followed")), name="social_follow_other"
            ),
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
            models.UniqueConstraint(fields=["blocker", "blocked"], name="social_block_once"),
            models.CheckConstraint(condition=~Q(blocker=F("blocked")), name="social_block_other"),
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
            models.UniqueConstraint(fields=["user", "muted"], name="social_mute_once"),
            models.CheckConstraint(condition=~Q(user=F("muted")), name="social_mute_other"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} mutes {self.muted_id}"


class ChatMessage(models.Model):
    """One message in a chat room (docs/social.md). ``room`` is ``players`` (a table's
    seated players), ``spectators`` (the same table's watchers: never shown to its
    players while the match is playing) or ``tournament`` (its entrants; the organiser's
    announcements too)."""

    class Room(models.TextChoices):
        PLAYERS = "players", _("table")
        SPECTATORS = "spectators", _("spectators")
        TOURNAMENT = "tournament", _("tournament")

    room = models.CharField(_("room"), max_length=12, choices=Room.choices)
    table = models.ForeignKey(
        "games.Table",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("table"),
    )
    tournament = models.ForeignKey(
        "tournaments.Tournament",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("tournament"),
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="chat_messages",
        verbose_name=_("author"),
    )
    announcement = models.BooleanField(_("organiser's announcement"), default=False)
    text = models.CharField(_("text"), max_length=1000)
    created_at = models.DateTimeField(_("written"), auto_now_add=True, db_index=True)
    hidden_at = models.DateTimeField(_("hidden"), null=True, blank=True)
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("hidden by"),
    )

    class Meta:
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        ordering = ["-created_at", "-pk"]
        indexes = [
            models.Index(fields=["table", "-created_at"], name="social_chat_table"),
            models.Index(fields=["tournament", "-created_at"], name="social_chat_tournament"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(room="tournament", table__isnull=True, tournament__isnull=False)
                | ~Q(room="tournament") & Q(table__isnull=False, tournament__isnull=True),
                name="social_chat_one_place",
            ),
        ]

    def __str__(self) -> str:
        return self.text[:60]


class ChatReport(models.Model):
    """A person reports a message to the moderators (the admin's moderation queue)."""

    message = models.ForeignKey(
        ChatMessage, on_delete=models.CASCADE, related_name="reports", verbose_name=_("message")
    )
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("reported by"),
    )
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    created_at = models.DateTimeField(_("reported"), auto_now_add=True)
    handled_at = models.DateTimeField(_("handled"), null=True, blank=True)
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("handled by"),
    )

    class Meta:
        verbose_name = _("chat report")
        verbose_name_plural = _("chat reports")
        ordering = ["handled_at", "-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["message", "reporter"], name="social_report_once"),
        ]

    def __str__(self) -> str:
        # The admin's titles name the report by this: never a bare "#3:" (no reason given).
        if self.reason:
            return _("Report of message #%(id)s: %(reason)s") % {
                "id": self.message_id,
                "reason": self.reason[:40],
            }
        return _("Report of message #%(id)s") % {"id": self.message_id}


class ChatBan(models.Model):
    """A moderator mutes a person for a time: in one tournament (its organiser or the
    staff), at one casual table, or everywhere (the staff)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="chat_bans",
        verbose_name=_("player"),
    )
    tournament = models.ForeignKey(
        "tournaments.Tournament",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("tournament"),
        help_text=_("Empty, and no table: everywhere on the site."),
    )
    table = models.ForeignKey(
        "games.Table",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("table"),
        help_text=_("A mute at one table that is no tournament's (a casual table)."),
    )
    until = models.DateTimeField(_("until"))
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("by"),
    )
    created_at = models.DateTimeField(_("since"), auto_now_add=True)

    class Meta:
        verbose_name = _("chat mute by a moderator")
        verbose_name_plural = _("chat mutes by moderators")
        ordering = ["-until"]
        indexes = [models.Index(fields=["user", "until"], name="social_ban_user_until")]

    def __str__(self) -> str:
        return f"{self.user_id} until {self.until:%Y-%m-%d %H:%M}"


class ChatSettings(models.Model):
    """A person's chat switch: off, he neither sees nor writes chat anywhere."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="chat_settings",
        verbose_name=_("player"),
    )
    chat_off = models.BooleanField(_("chat off"), default=False)

    class Meta:
        verbose_name = _("chat setting")
        verbose_name_plural = _("chat settings")

    def __str__(self) -> str:
        return f"{self.user_id}: {'off' if self.chat_off else 'on'}"


class TableChat(models.Model):
    """A table's chat switch (its creator's): off, nobody writes there."""

    table = models.OneToOneField(
        "games.Table", on_delete=models.CASCADE, related_name="+", verbose_name=_("table")
    )
    chat_off = models.BooleanField(_("chat off"), default=False)

    class Meta:
        verbose_name = _("table chat setting")
        verbose_name_plural = _("table chat settings")

    def __str__(self) -> str:
        return f"{self.table_id}: {'off' if self.chat_off else 'on'}"


class Challenge(models.Model):
    """ "Play me": a person invites one or two others to a private table of the size,
    rules and clock he chose (bots take the other seats). When every invited person
    has accepted, the table is made, everybody seated and the match started; one
    decline, a cancel, or ``expires_at`` closes it."""

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for answers")
        ACCEPTED = "accepted", _("accepted")
        DECLINED = "declined", _("declined")
        CANCELLED = "cancelled", _("cancelled")
        EXPIRED = "expired", _("expired")

    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="challenges_sent",
        verbose_name=_("challenger"),
    )
    players = models.PositiveSmallIntegerField(_("players"))
    preset = models.CharField(_("rules"), max_length=16)
    options = models.JSONField(_("options"), default=dict, blank=True)
    move_seconds = models.PositiveIntegerField(_("seconds a move"))
    rated = models.BooleanField(_("rated"), default=False)
    bot_level = models.CharField(_("bot level"), max_length=8, default="basic")
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    table = models.ForeignKey(
        "games.Table",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("table"),
    )
    created_at = models.DateTimeField(_("sent"), auto_now_add=True)
    expires_at = models.DateTimeField(_("expires"), db_index=True)
    # The keyed hash of the address the challenger sent it from (never the address):
    # its table counts against that address's cap on tables of bots when it starts.
    started_from = models.CharField(_("sent from"), max_length=32, blank=True, editable=False)

    class Meta:
        verbose_name = _("challenge")
        verbose_name_plural = _("challenges")
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"#{self.pk} by {self.challenger_id} ({self.status})"


class ChallengeInvite(models.Model):
    """One invited person's answer to a challenge."""

    class Answer(models.TextChoices):
        WAITING = "waiting", _("waiting")
        ACCEPTED = "accepted", _("accepted")
        DECLINED = "declined", _("declined")

    challenge = models.ForeignKey(
        Challenge, on_delete=models.CASCADE, related_name="invites", verbose_name=_("challenge")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="challenges_received",
        verbose_name=_("invited"),
    )
    answer = models.CharField(
        _("answer"), max_length=8, choices=Answer.choices, default=Answer.WAITING
    )
    answered_at = models.DateTimeField(_("answered"), null=True, blank=True)

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        constraints = [
            models.UniqueConstraint(fields=["challenge", "user"], name="social_invite_once"),
        ]

    def __str__(self) -> str:
        return f"#{self.challenge_id} → {self.user_id}: {self.answer}"


class Reminder(models.Model):
    """A reminder sent to one entrant of a tournament (once per kind): it starts soon,
    or check-in closes soon and he has not checked in."""

    class Kind(models.TextChoices):
        START = "start", _("starts soon")
        CHECK_IN = "check_in", _("check-in closes soon")

    tournament = models.ForeignKey(
        "tournaments.Tournament",
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("tournament"),
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("player"),
    )
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices)
    sent_at = models.DateTimeField(_("sent"), auto_now_add=True)

    class Meta:
        verbose_name = _("reminder")
        verbose_name_plural = _("reminders")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user", "kind"], name="social_reminder_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id}/{self.user_id}: {self.kind}"


class SocialSettings(models.Model):
    """Whom a person takes challenges from, and who sees that he is online and at which
    table (docs/social.md, "Settings"). No row: the defaults."""

    class Challenges(models.TextChoices):
        EVERYBODY = "everybody", _("everybody")
        FOLLOWED = "followed", _("people I follow")

    class Presence(models.TextChoices):
        EVERYBODY = "everybody", _("everybody")
        FOLLOWED = "followed", _("people I follow")
        NOBODY = "nobody", _("nobody")

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="social_settings",
        verbose_name=_("player"),
    )
    challenges = models.CharField(
        _("challenges from"),
        max_length=10,
        choices=Challenges.choices,
        default=Challenges.EVERYBODY,
    )
    presence = models.CharField(
        _("who sees me online"),
        max_length=10,
        choices=Presence.choices,
        default=Presence.EVERYBODY,
        help_text=_("Who may see that you are online and at which table."),
    )

    class Meta:
        verbose_name = _("social setting")
        verbose_name_plural = _("social settings")

    def __str__(self) -> str:
        return f"{self.user_id}: challenges {self.challenges}, presence {self.presence}"
