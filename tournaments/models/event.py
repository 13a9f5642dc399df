"""The event and who entered it:

- :class:`Tournament` — the event and its rules; ``status`` is its state machine
  (``tournaments.services``), moved by the Celery tick.
- :class:`Registration` — one per player and event.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.bots import LEVELS
from games.engine.options import PRESETS
from tournaments.formats import Format
from tournaments.scoring import DEFAULT_POINTS, placement_points
from tournaments.validation import tournament_errors


def default_points() -> list[int]:
    return list(DEFAULT_POINTS[3])


class Tournament(models.Model):
    Format = Format

    class Movement(models.TextChoices):
        SWISS = "swiss", _("Swiss: players of similar standing meet")
        ROUND_ROBIN = "round_robin", _("round robin: a schedule fixed at the start, no pair twice")

    class DuplicateBots(models.TextChoices):
        COMPARE = "compare", _("compared like anyone")
        EXCLUDE = "exclude", _("left out of the comparison")

    class Status(models.TextChoices):
        DRAFT = "draft", _("draft")
        SCHEDULED = "scheduled", _("scheduled")
        REGISTRATION = "registration", _("registration")
        CHECK_IN = "check_in", _("check-in")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")
        CANCELLED = "cancelled", _("cancelled")

    ACTIVE = (Status.SCHEDULED, Status.REGISTRATION, Status.CHECK_IN, Status.RUNNING)
    ENTERABLE = (Status.REGISTRATION, Status.CHECK_IN)

    name = models.CharField(_("name"), max_length=120)
    description = models.TextField(_("description"), blank=True)
    format = models.CharField(
        _("format"), max_length=10, choices=Format.choices, default=Format.SWISS
    )
    players_per_table = models.PositiveSmallIntegerField(
        _("players per table"), choices=[(2, "2"), (3, "3"), (4, "4")], default=3
    )
    preset = models.CharField(
        _("rules preset"),
        max_length=16,
        choices=[(name, name) for name in PRESETS],
        default="classic",
    )
    options = models.JSONField(
        _("rule changes"),
        default=dict,
        blank=True,
        help_text=_('Changes to the preset\'s options (unrated events only), e.g. {"dark": true}.'),
    )
    match_target = models.PositiveIntegerField(
        _("match target"),
        null=True,
        blank=True,
        help_text=_("Points that win a match; empty for the preset's (1000)."),
    )
    rated = models.BooleanField(_("rated"), default=True)
    move_seconds = models.PositiveIntegerField(
        _("seconds per action"),
        default=30,
        help_text=_("The clock for every action at the tables."),
    )
    round_minutes = models.PositiveIntegerField(
        _("round time limit (minutes)"),
        null=True,
        blank=True,
        help_text=_(
            "When it runs out, unfinished matches finish their current deal and are ranked "
            "by their scores. Empty for no limit."
        ),
    )
    rounds = models.PositiveSmallIntegerField(
        _("rounds"),
        null=True,
        blank=True,
        help_text=_("Swiss and duplicate: the number of rounds."),
    )
    boards = models.PositiveSmallIntegerField(
        _("boards per round"),
        null=True,
        blank=True,
        help_text=_(
            "Duplicate: the deals of each round's match; every table plays the same boards."
        ),
    )
    movement = models.CharField(
        _("movement"),
        max_length=12,
        choices=Movement.choices,
        default=Movement.SWISS,
        help_text=_(
            "Duplicate: who meets whom from round to round. Round robin plans every round "
            "from the entrants when round 1 is seated, whatever the results: each pair "
            "meets at most once while the rounds allow, and everyone holds each position "
            "in turn."
        ),
    )
    duplicate_bots = models.CharField(
        _("bot-filled seats"),
        max_length=8,
        choices=DuplicateBots.choices,
        default=DuplicateBots.COMPARE,
        help_text=_("Duplicate: whether the boards a bot played are compared with the players'."),
    )
    boards_from_zero = models.BooleanField(
        _("every board starts from 0:0:0"),
        default=False,
        help_text=_(
            "Duplicate: every board is played and scored as the first deal of a new match "
            "(no score, bolts or barrel carried), so the same cards are worth the same at "
            "every table."
        ),
    )
    duration_minutes = models.PositiveIntegerField(
        _("duration (minutes)"), null=True, blank=True, help_text=_("Arena: how long it lasts.")
    )
    advance = models.PositiveSmallIntegerField(
        _("players through from each table"),
        default=1,
        help_text=_("Knockout: the top players of each table who go through."),
    )
    break_seconds = models.PositiveIntegerField(
        _("seconds between seating and play"),
        default=60,
        help_text=_(
            "Players see their table this long before it starts; a round can be reseated meanwhile."
        ),
    )
    registration_opens_at = models.DateTimeField(_("registration opens"))
    registration_closes_at = models.DateTimeField(
        _("registration closes"), null=True, blank=True, help_text=_("Empty: at the start.")
    )
    starts_at = models.DateTimeField(_("starts"))
    check_in_minutes = models.PositiveIntegerField(
        _("check-in window (minutes)"),
        default=0,
        help_text=_(
            "Players confirm in this window before the start; those who do not are dropped. "
            "0: every registered player plays."
        ),
    )
    max_players = models.PositiveIntegerField(_("maximum players"), null=True, blank=True)
    min_rating = models.PositiveIntegerField(_("minimum rating"), null=True, blank=True)
    min_rated_matches = models.PositiveIntegerField(_("minimum rated matches"), default=0)
    bot_level = models.CharField(
        _("bot level for empty seats"),
        max_length=8,
        choices=[(level, level) for level in LEVELS],
        default="basic",
    )
    placement_points = models.JSONField(
        _("placement points"),
        default=default_points,
        help_text=_("Points for 1st, 2nd, … place at a table, e.g. [3, 1, 0]."),
    )
    arena_range = models.PositiveIntegerField(
        _("arena rating range"), default=150, help_text=_("Arena: the rating range at first.")
    )
    arena_widen = models.PositiveIntegerField(_("arena range widening per 10 s"), default=50)
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.DRAFT, db_index=True
    )
    paused = models.BooleanField(
        _("paused"), default=False, help_text=_("Nothing new is seated while paused.")
    )
    seed = models.PositiveIntegerField(_("seating seed"), default=0)
    cancel_reason = models.CharField(_("why cancelled"), max_length=200, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tournaments_created",
        verbose_name=_("organiser"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-starts_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(players_per_table__in=(2, 3, 4)), name="tournaments_table_size"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    # -- derived ---------------------------------------------------------------------

    @property
    def closes_at(self) -> Any:
        return self.registration_closes_at or self.starts_at

    @property
    def check_in_opens_at(self) -> Any:
        return self.starts_at - timedelta(minutes=self.check_in_minutes)

    @property
    def arena_ends_at(self) -> Any:
        """Arena: when no new table is seated."""
        start = self.started_at or self.starts_at
        return start + timedelta(minutes=self.duration_minutes or 0)

    @property
    def ends_at(self) -> Any:
        """When the event is over, or expected to be: an arena's end; a Swiss with a
        round time limit, its start plus each round's break and limit; when finished, the
        moment it finished. None when nobody can tell (a knockout, or no time limit)."""
        if self.finished_at is not None:
            return self.finished_at
        if self.format == self.Format.ARENA:
            return self.arena_ends_at
        if self.format == self.Format.SWISS and self.rounds and self.round_minutes:
            start = self.started_at or self.starts_at
            per_round = timedelta(seconds=self.break_seconds, minutes=self.round_minutes)
            return start + self.rounds * per_round
        return None

    def table_options(self) -> dict[str, Any]:
        """The changes to the preset every table of the event plays with; a duplicate
        round's match is its boards (docs/spec.md §3.7), each from 0:0:0 if the organiser
        chose it (§3.8)."""
        options = dict(self.options or {})
        if self.match_target:
            options["target"] = self.match_target
        if self.format == self.Format.DUPLICATE and self.boards:
            options["deals"] = self.boards
            if self.boards_from_zero:
                options["boards_from_zero"] = True
        return options

    def points_for(self, place: int) -> int:
        return int(placement_points(place, self.placement_points or []))

    def clean(self) -> None:
        errors = tournament_errors(self)
        if errors:
            raise ValidationError(errors)


class Registration(models.Model):
    class Status(models.TextChoices):
        REGISTERED = "registered", _("registered")
        CHECKED_IN = "checked_in", _("checked in")
        WITHDRAWN = "withdrawn", _("withdrawn")
        DISQUALIFIED = "disqualified", _("disqualified")
        NO_SHOW = "no_show", _("did not check in")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="registrations"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="tournament_registrations",
        verbose_name=_("player"),
    )
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.REGISTERED
    )
    rating = models.FloatField(
        _("rating"), default=1500.0, help_text=_("At registration: seeds the first round.")
    )
    # Set by the service (the same moment as a check-in made with it), not auto_now_add.
    registered_at = models.DateTimeField(_("registered"), default=timezone.now)
    checked_in_at = models.DateTimeField(_("checked in"), null=True, blank=True)
    left_at = models.DateTimeField(_("withdrew or was disqualified"), null=True, blank=True)
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    seed = models.PositiveIntegerField(
        _("seed"),
        null=True,
        blank=True,
        help_text=_(
            "Manual seed (1 = the top) for a knockout and the first Swiss round; "
            "empty: by rating, after the seeded players."
        ),
    )

    class Meta:
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        ordering = ["tournament", "registered_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user"], name="tournaments_one_registration"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} @ {self.tournament}"
