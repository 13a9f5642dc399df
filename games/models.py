"""Live tables: the table, its seats, the append-only action log, one fair-dealing
commitment per dealing and one result per finished match.

The action log is the truth: replaying it with the engine (cards from the dealings'
seeds) always gives the table's state; ``games.state`` keeps that state in memory,
checked against :attr:`Table.version`.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.bots import LEVELS as BOT_LEVELS  # one list of levels: the bots' own


def new_invite_code() -> str:
    return secrets.token_urlsafe(12)


class Table(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("open")
        PLAYING = "playing", _("playing")
        FINISHED = "finished", _("finished")
        ABANDONED = "abandoned", _("abandoned")

    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="tables_created",
        verbose_name=_("created by"),
    )
    players = models.PositiveSmallIntegerField(_("players"), default=3)
    preset = models.CharField(
        _("preset"),
        max_length=16,
        default="classic",
        help_text=_("The preset the options came from."),
    )
    options = models.JSONField(_("options"), help_text=_("The engine's options, all of them."))
    rated = models.BooleanField(_("rated"), default=False)
    is_private = models.BooleanField(
        _("private"), default=False, help_text=_("Not listed; joined with the invite link.")
    )
    invite_code = models.CharField(
        _("invite code"), max_length=32, unique=True, default=new_invite_code
    )
    move_seconds = models.PositiveIntegerField(
        _("seconds per action"), default=30, help_text=_("The clock for every action.")
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True
    )
    version = models.PositiveIntegerField(_("version"), default=0, help_text=_("Actions applied."))
    # Grows with every change of a seat (join, bot, resign, away…): lets each process
    # keep the seats in memory between actions and notice when they changed.
    seats_version = models.PositiveIntegerField(_("seats version"), default=0)
    first_dealer = models.PositiveSmallIntegerField(_("first dealer"), null=True, blank=True)
    # The clock: when the seat to act runs out of time (for a bot: when the sweep plays
    # for it if its scheduled turn was lost). Null when nobody is to act.
    deadline = models.DateTimeField(_("deadline"), null=True, blank=True)
    # Set by :func:`games.services.table_finish_after_deal`: the match ends with a result
    # as soon as this many deals are complete, for the reason in ``finishing_by``.
    finish_after_deals = models.PositiveIntegerField(_("finish after deals"), null=True, blank=True)
    finishing_by = models.CharField(
        _("finishing by"), max_length=12, blank=True, help_text=_("Why the match is to end early.")
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    # Set when the retention task deleted the finished match's log rows and dealings
    # (games/retention.py): from then on the result's record is the match's only copy.
    log_archived_at = models.DateTimeField(_("log archived"), null=True, blank=True)
    # A keyed hash of the address the person who started a table of bots played from,
    # never the address itself: the cap on such tables per address (GAMES_BOT_TABLES_PER_ADDRESS).
    started_from = models.CharField(_("started from"), max_length=32, blank=True, editable=False)
    # A duplicate round's sequence (docs/fair-dealing.md "Duplicate rounds"): the round
    # seed and the entrants' seeds. The table's dealings come from it, dealt from the
    # dealer, take no client seeds and stay secret until the round is over.
    dealing_source = models.JSONField(_("dealing source"), null=True, blank=True)
    # "Play again": the table opened after this finished one with the same kind of match,
    # people and bots (games.services.table_rematch); its other players join it from here.
    rematch = models.OneToOneField(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="rematch_of",
        verbose_name=_("rematch"),
    )

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["-created_at"]
        indexes = [
            # The lobby's newest open public tables, whatever the number of tables.
            models.Index(
                fields=["-created_at"],
                name="games_table_lobby",
                condition=Q(status="open", is_private=False),
            ),
            models.Index(
                fields=["deadline"], name="games_table_clock", condition=Q(status="playing")
            ),
            # The tables of bots playing from one address (their cap).
            models.Index(
                fields=["started_from"],
                name="games_table_started_from",
                condition=Q(status="playing") & ~Q(started_from=""),
            ),
            # The archive task's queue (games/retention.py): stays as small as the
            # finished tables inside the retention time, however many there were.
            models.Index(
                fields=["finished_at"],
                name="games_table_to_archive",
                condition=Q(status="finished", log_archived_at__isnull=True),
            ),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(players__in=(2, 3, 4)), name="games_table_players"),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} ({self.get_status_display()})"


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="seats",
        verbose_name=_("player"),
    )
    bot_level = models.CharField(
        _("bot level"),
        max_length=8,
        blank=True,
        choices=[(level, level) for level in BOT_LEVELS],
        help_text=_("Empty for a person."),
    )
    away = models.BooleanField(
        _("away"), default=False, help_text=_("A bot plays for the person until he acts again.")
    )
    timeouts_in_row = models.PositiveSmallIntegerField(_("timeouts in a row"), default=0)
    resigned = models.BooleanField(
        _("resigned"),
        default=False,
        help_text=_("A bot plays to the end; the player finishes last."),
    )
    joined_at = models.DateTimeField(_("joined"), auto_now_add=True)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="games_seat_unique_number"),
            models.UniqueConstraint(
                fields=["table", "user"],
                name="games_seat_unique_user",
                condition=Q(user__isnull=False),
            ),
            models.CheckConstraint(
                condition=Q(user__isnull=False, bot_level="")
                | Q(user__isnull=True) & ~Q(bot_level=""),
                name="games_seat_person_or_bot",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table_id}/{self.number}: {self.name()}"

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_level)

    @property
    def played_by_bot(self) -> bool:
        """A bot decides for this seat now: a bot seat, or a person away or resigned."""
        return self.is_bot or self.away or self.resigned

    def name(self) -> str:
        if self.user is not None:
            return self.user.get_display_name()
        return f"Bot ({self.bot_level})"


class TableAction(models.Model):
    """One row per applied action; ``version`` is the table's version after it."""

    class Source(models.TextChoices):
        HUMAN = "human", _("person")
        BOT = "bot", _("bot")
        TIMEOUT = "timeout", _("timeout")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="actions")
    version = models.PositiveIntegerField(_("version"))
    dealing = models.PositiveIntegerField(_("dealing"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    action = models.JSONField(_("action"))
    source = models.CharField(_("source"), max_length=8, choices=Source.choices)
    # NULL, not "": only messages that carry an id are unique (the constraint below).
    client_id = models.CharField(_("client message id"), max_length=64, null=True, blank=True)  # noqa: DJ001
    created_at = models.DateTimeField(_("time"), auto_now_add=True)

    class Meta:
        verbose_name = _("action")
        verbose_name_plural = _("action log")
        ordering = ["table", "version"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "version"], name="games_action_unique_version"
            ),
            # A resent client message id never applies twice (docs/protocol.md).
            models.UniqueConstraint(
                fields=["table", "seat", "client_id"],
                name="games_action_unique_client_id",
                condition=Q(client_id__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table_id} v{self.version}: seat {self.seat} {self.action}"


class Dealing(models.Model):
    """The fair-dealing commitment of one dealing (docs/fair-dealing.md): the server
    seed stays secret until the deal has ended; players' clients may add seeds before
    the cards are dealt."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="dealings")
    number = models.PositiveIntegerField(_("dealing"))
    dealer = models.PositiveSmallIntegerField(_("dealer"), null=True, blank=True)
    commitment = models.CharField(_("commitment"), max_length=64)
    server_seed = models.CharField(_("server seed"), max_length=64)
    client_seeds = models.JSONField(_("client seeds"), default=dict, blank=True)
    dealt_at = models.DateTimeField(_("dealt"), null=True, blank=True)
    revealed = models.BooleanField(_("revealed"), default=False)
    # A duplicate round's dealing: dealt from the dealer (fair.duplicate_deal), its
    # sequence index the dealing's number.
    from_dealer = models.BooleanField(_("from the dealer"), default=False)

    class Meta:
        verbose_name = _("dealing")
        verbose_name_plural = _("dealings")
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="games_dealing_unique_number"),
        ]

    def __str__(self) -> str:
        return f"{self.table_id}/{self.number}"


class FinishedBy(models.TextChoices):
    """Why a match ended. Every way adds a value here (a choices field: new values need
    no schema change); only ``won`` has a winner."""

    WON = "won", _("won")
    DEALS = "deals", _("after its deals")
    TIME = "time", _("time limit")
    RESIGNED = "resigned", _("everyone resigned")
    ABANDONED = "abandoned", _("stopped by the organiser")


# The ways the rules end a match (docs/spec.md §3.6, §3.7): the record holds every action.
# The others cut it short at its last complete deal.
BY_THE_RULES = frozenset({FinishedBy.WON, FinishedBy.DEALS})


class MatchResult(models.Model):
    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="result")
    finished_by = models.CharField(
        _("finished by"),
        max_length=12,
        choices=FinishedBy.choices,
        default=FinishedBy.WON,
        help_text=_(
            "Won, or cut short: then the places go by the scores after the last complete deal."
        ),
    )
    finished_at = models.DateTimeField(_("finished"))
    final_scores = models.JSONField(_("final scores"))
    placements = models.JSONField(
        _("placements"), help_text=_("By seat: 1 is the winner; equal scores share a place.")
    )
    winner_seat = models.PositiveSmallIntegerField(_("winner's seat"), null=True, blank=True)
    deals = models.PositiveIntegerField(_("deals"))
    record = models.JSONField(_("match record"))

    class Meta:
        verbose_name = _("match result")
        verbose_name_plural = _("match results")
        ordering = ["-finished_at"]

    def __str__(self) -> str:
        return f"{self.table_id}: {self.final_scores}"

    def ending(self) -> str:
        """How a match cut short ended, in one sentence for the pages ("" when won)."""
        n = self.deals
        if self.finished_by == FinishedBy.WON:
            return ""
        if self.finished_by == FinishedBy.DEALS:
            # The table's match length: ``deals`` counts redeals too (docs/spec.md §3.7).
            n = (self.record.get("options") or {}).get("deals") or n
            text = ngettext(
                "The match ended after its %(n)s deal: the places go by the scores.",
                "The match ended after its %(n)s deals: the places go by the scores.",
                n,
            )
        elif self.finished_by == FinishedBy.TIME:
            text = ngettext(
                "Ended by the time limit after %(n)s complete deal: the places go by the scores.",
                "Ended by the time limit after %(n)s complete deals: the places go by the scores.",
                n,
            )
        elif self.finished_by == FinishedBy.RESIGNED:
            text = ngettext(
                "Ended when every player had resigned, after %(n)s complete deal: the places go by the scores.",
                "Ended when every player had resigned, after %(n)s complete deals: the places go by the scores.",
                n,
            )
        elif self.finished_by == FinishedBy.ABANDONED:
            text = ngettext(
                "Stopped by the organiser after %(n)s complete deal: the places go by the scores.",
                "Stopped by the organiser after %(n)s complete deals: the places go by the scores.",
                n,
            )
        else:
            return str(self.get_finished_by_display())
        return text % {"n": n}
